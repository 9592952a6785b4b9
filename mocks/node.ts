import { setupServer } from 'msw/node';
import { handlers, type MockOptions } from './handlers';

/** The mocks in Node (vitest): no delay, fresh data per server. Bases must be absolute for Node's fetch. */
export const createMockServer = (upstreamBase: string, restBase: string, options?: MockOptions) =>
  setupServer(...handlers(upstreamBase, restBase, options));
