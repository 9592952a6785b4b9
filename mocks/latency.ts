import { delay, http } from 'msw';

/** docs/product.md, "The console": mocked calls answer after 600 to 1000 ms, as the old console's mocks did, so loading states show as they will in production. */
export const MOCK_DELAY_MS = { min: 600, max: 1000 } as const;

/** Waits, then answers nothing, so msw goes on to the real mock; only our API paths under `base` wait, never assets. */
export const latency = (base: string) =>
  http.all(`${base}/*`, async () => {
    await delay(MOCK_DELAY_MS.min + Math.random() * (MOCK_DELAY_MS.max - MOCK_DELAY_MS.min));
  });
