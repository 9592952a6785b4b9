import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { BrowserRouter } from 'react-router-dom';
import { handlers } from '../../mocks/handlers';
import { MOCK_CLIENT_DEVICES } from '../../mocks/auth';
import { generatedState } from '../../mocks/handlers';
import { MOCK_TOTAL } from '../../mocks/seed';
import { App } from '../../src/App';
import { accountsConfig } from '../../src/resources/accounts/config';
import { applyListQuery } from '../../src/resources/query';
import { signIn } from './console';
import { bodyRows, column, wait } from './resources/dom';

/** The user info page in the console, in jsdom against the msw mocks (their lists are not scoped by account). */
const upstreamBase = 'http://console.test/upstream';
const restBase = 'http://console.test/api/v1';

const server = setupServer();
const calls: string[] = [];
server.events.on('request:start', ({ request }) => calls.push(new URL(request.url).pathname));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  calls.length = 0;
});
afterAll(() => server.close());

const openUserInfo = async (account: string, password: string) => {
  server.use(...handlers(upstreamBase, restBase));
  window.history.replaceState(null, '', '/user/info');
  render(
    <BrowserRouter>
      <App config={{ upstreamBase, restBase }} />
    </BrowserRouter>,
  );
  await signIn(account, password);
};

const fact = (id: string) => screen.getByTestId(`user-info-${id}`).textContent;

/** The seeded accounts below a super administrator: every one of a lower rank, first page in the list's order. */
const seededTeam = () => {
  const accounts = generatedState().tables.get('accounts') ?? [];
  return applyListQuery(accountsConfig, accounts, { current: 1, pageSize: 10, filter: { Level: [1, 2, 3] } });
};

describe('user info', () => {
  it("shows an administrator's overview, its devices (each opening the device) and the accounts below it", async () => {
    await openUserInfo('admin', 'Admin2026');
    const team = seededTeam();
    expect(team.total).toBeGreaterThan(0);
    await waitFor(() => expect(fact('team')).toBe(`下级账号数: ${team.total}`), wait);
    expect(fact('account')).toBe('账号: admin');
    expect(fact('level')).toBe('账号级别: 超级管理员');
    expect(fact('role')).toBe('角色: 超级管理员');
    expect(fact('upper-admin')).toBe('上级管理员: 无');
    expect(fact('devices')).toBe(`管理的设备数: ${MOCK_TOTAL}`);

    await waitFor(() => expect(bodyRows()).toHaveLength(10), wait);
    const ids = column('设备编号');
    expect(ids[0]).toBe('Id-001');
    expect(column('位置')).toHaveLength(10);

    fireEvent.click(screen.getByRole('tab', { name: '团队（下级账号）' }));
    await waitFor(() => expect(column('账号')).toEqual(team.list.map((record) => record.Account)), wait);
    expect(column('账号级别')).not.toContain('超级管理员');
    expect(column('管理的设备数')).toEqual(team.list.map((record) => String((record.DeviceIds as unknown[]).length)));

    fireEvent.click(screen.getByRole('tab', { name: '项目（我的设备）' }));
    await waitFor(() => expect(column('设备编号')[1]).toBe('Id-002'), wait);
    fireEvent.click(bodyRows()[1] as HTMLElement);
    await waitFor(() => expect(window.location.pathname).toBe('/devices/Id-002/show'), wait);
  });

  it('shows a client its devices and an empty team that says why, without asking for accounts', async () => {
    await openUserInfo('client', 'Client2026');
    await waitFor(() => expect(fact('devices')).toBe(`管理的设备数: ${MOCK_CLIENT_DEVICES}`), wait);
    expect(fact('level')).toBe('账号级别: 普通用户');
    expect(fact('upper-admin')).toBe('上级管理员: user');
    expect(fact('team')).toBe('下级账号数: 0');
    await waitFor(() => expect(bodyRows()).toHaveLength(10), wait);

    fireEvent.click(screen.getByRole('tab', { name: '团队（下级账号）' }));
    expect(screen.getByTestId('user-info-no-team').textContent).toBe('普通用户不管理其他账号，没有下级账号。');
    expect(bodyRows()).toHaveLength(0);
    expect(calls.filter((path) => path.endsWith('/get_Admins'))).toEqual([]);
  });
});
