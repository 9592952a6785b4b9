import { delay, http } from 'msw';
import { setupWorker } from 'msw/browser';
import { handlers } from './handlers';

/** docs/product.md, "The console": mocked calls answer after 600 to 1000 ms, so loading states show as they will in production. */
export const MOCK_DELAY_MS = { min: 600, max: 1000 } as const;

const latency = (base: string) =>
  // Answers nothing, so msw goes on to the real mock after the wait; only our API paths wait, never assets.
  http.all(`${base}/*`, async () => {
    await delay(MOCK_DELAY_MS.min + Math.random() * (MOCK_DELAY_MS.max - MOCK_DELAY_MS.min));
  });

/** Starts the mocked console backend in the browser (`npm run dev:mock`); needs public/mockServiceWorker.js. */
export const startMockWorker = async (upstreamBase: string, restBase: string) => {
  const worker = setupWorker(latency(upstreamBase), latency(restBase), ...handlers(upstreamBase, restBase));
  await worker.start({ onUnhandledRequest: 'bypass' });
  return worker;
};
