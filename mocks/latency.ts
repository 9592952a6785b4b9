import { delay, http, type RequestHandler } from 'msw';
import { handlers, type MockOptions } from './handlers';

/** docs/product.md, "The console": the old console's calls answer after 600 to 1000 ms, as its mocks did, so loading states show as they will in production. */
export const MOCK_DELAY_MS = { min: 600, max: 1000 } as const;

/** Waits, then answers nothing, so msw goes on to the real mock; only API paths under `base` wait, never assets. */
const latency = (base: string) =>
  http.all(`${base}/*`, async () => {
    await delay(MOCK_DELAY_MS.min + Math.random() * (MOCK_DELAY_MS.max - MOCK_DELAY_MS.min));
  });

/**
 * The browser's mocks (`npm run dev:mock`): every call of the upstream contract, the old console's calls,
 * waits as the old mocks did; the REST API's calls (the live stream, charts, alarm actions), which the
 * old console never had, answer at once, so the live screens stay live.
 */
export const browserHandlers = (upstreamBase: string, restBase: string, options: MockOptions): RequestHandler[] => [
  latency(upstreamBase),
  ...handlers(upstreamBase, restBase, options),
];
