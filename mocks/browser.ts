import { setupWorker } from 'msw/browser';
import { chamberRatesFrom } from './deviceCommands';
import { browserHandlers } from './latency';
import { loadMockState, MOCK_RESET_PARAM, resetMockState, saveMockState } from './persist';

/** The mocked chambers report every two seconds on the live stream. */
const LIVE_TICK_MS = 2000;

/**
 * Starts the mocked console backend in the browser (`npm run dev:mock`); needs public/mockServiceWorker.js.
 * It holds the demo's accounts and fleet, kept in localStorage with its sessions across reloads
 * (mocks/persist.ts); the chambers answer commands at the rates the URL or localStorage set.
 */
export const startMockWorker = async (upstreamBase: string, restBase: string) => {
  const params = new URLSearchParams(window.location.search);
  if (params.has(MOCK_RESET_PARAM)) resetMockState(window.localStorage);
  const state = loadMockState(window.localStorage, Date.now());
  const chambers = chamberRatesFrom((name) => params.get(name) ?? window.localStorage.getItem(name));
  const worker = setupWorker(...browserHandlers(upstreamBase, restBase, { state, chambers, liveTickMs: LIVE_TICK_MS }));
  worker.events.on('response:mocked', () => saveMockState(window.localStorage, state));
  await worker.start({ onUnhandledRequest: 'bypass' });
  return worker;
};
