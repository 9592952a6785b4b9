import { afterAll, afterEach, beforeAll } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { BrowserRouter } from 'react-router-dom';
import { setupServer } from 'msw/node';
import { authHandlers } from '../../mocks/auth';
import { liveHandlers } from '../../mocks/live';
import { App } from '../../src/App';
import { loadLazyViews } from './lazyViews';

/** The console against the msw mocks, in jsdom: one server per test file, which calls withMockedUpstream(). */
const upstreamBase = 'http://console.test/upstream';
export const withMockedUpstream = () => {
  // The layout opens the live stream (default REST base, relative like the console's).
  const server = setupServer(...authHandlers(upstreamBase), ...liveHandlers('/api/v1'));
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeAll(loadLazyViews, 60_000);
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
};

const config = { upstreamBase };
/** The console runs under a BrowserRouter, as in production: jsdom's history stands in for the browser's. */
export const renderAt = (path: string) => {
  window.history.replaceState(null, '', path);
  return render(
    <BrowserRouter>
      <App config={config} />
    </BrowserRouter>,
  );
};

export const signIn = async (account: string, password: string) => {
  fireEvent.change(await screen.findByLabelText('用户名', {}, { timeout: 20_000 }), { target: { value: account } });
  fireEvent.change(screen.getByLabelText('密码'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: '登录' }));
};

