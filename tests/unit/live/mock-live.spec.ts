import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockServer } from '../../../mocks/node';
import { CODES } from '../../../src/domain/envelope';
import { createLiveConnection, type LiveStatus } from '../../../src/providers/live';
import { mockSession, REST, UPSTREAM } from '../resources/fixtures';

/** The mocks' live stream (mocks/live.ts): the mocked console is live, and refuses a missing token. */
const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the mocked live stream', () => {
  it('goes live for a signed-in session and stays open', async () => {
    const { tokens } = await mockSession('admin');
    const connection = createLiveConnection({ url: `${REST}/live`, tokens });
    const statuses: LiveStatus[] = [];
    connection.on('status', (status) => statuses.push(status));
    connection.start();
    await vi.waitFor(() => expect(connection.status()).toBe('live'));
    connection.stop();
    expect(statuses).toEqual(['connecting', 'live', 'off']);
  });

  it('answers 401 without a token', async () => {
    const response = await fetch(`${REST}/live`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: CODES.notSignedIn });
  });
});
