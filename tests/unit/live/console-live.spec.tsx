import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { BrowserRouter } from 'react-router-dom';
import { handlers } from '../../../mocks/handlers';
import { App } from '../../../src/App';
import { signIn } from '../console';
import { column, wait } from '../resources/dom';
import { writableLiveStream } from './writableStream';

/**
 * The console with its live stream, in jsdom against the msw mocks: a mocked `GET /api/v1/live` that the
 * test writes to. A device patch changes the device list's row without a request.
 */
const upstreamBase = 'http://console.test/upstream';
const restBase = 'http://console.test/api/v1';
const config = { upstreamBase, restBase };

const live = writableLiveStream(restBase);
const server = setupServer(live.handler, ...handlers(upstreamBase, restBase));
const listRequests: string[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => {
    if (request.url.endsWith('/list/get_OCProperty')) listRequests.push(request.url);
  });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the console with its live stream', () => {
  it('says it is live in the app bar, and updates a device row in place from a patch', async () => {
    // Signed out, the device manager sends to sign-in, which returns there.
    window.history.replaceState(null, '', '/list/device-manager');
    render(
      <BrowserRouter>
        <App config={config} />
      </BrowserRouter>,
    );
    await signIn('admin', 'Admin2026');
    const indicator = await screen.findByRole('status', {}, wait);
    await waitFor(() => expect(within(indicator).getByText('实时')).toBeTruthy(), wait);
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    const [before] = column('状态');
    const [next, shown] = before === '维修中' ? ['Work', '工作中'] : ['Repair', '维修中'];
    const requests = listRequests.length;
    live.send(`id: t.2\nevent: device\ndata: ${JSON.stringify({ Id: 'Id-001', State: next, Online: true })}\n\n`);
    await waitFor(() => expect(column('状态')[0]).toBe(shown), wait);
    expect(listRequests).toHaveLength(requests);
  });
});
