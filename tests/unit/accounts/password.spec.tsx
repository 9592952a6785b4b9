import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { MOCK_CLIENT_DEVICES } from '../../../mocks/auth';
import type { LoginResult } from '../../../src/domain/auth';
import type { ResetAnswer } from '../../../src/resources/accounts/calls';
import { MUST_CHANGE_CODE_KEY } from '../../../src/providers/authProvider';
import { renderAt, signIn } from '../console';
import { input, type, wait } from '../resources/dom';
import { mockSession, REST, UPSTREAM } from '../resources/fixtures';

/** The whole console (App) against the full mocks: sign-in, the password calls, the 40300 gate. */
const server = createMockServer(UPSTREAM, REST);
const calls: string[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'bypass' });
  server.events.on('request:start', ({ request }) => calls.push(new URL(request.url).pathname));
});
afterEach(() => {
  server.resetHandlers();
  calls.length = 0;
});
afterAll(() => server.close());

const path = () => window.location.pathname + window.location.search;
const selfResets = () => calls.filter((call) => call.endsWith('/code/self_reset_Code')).length;
const fill = (values: Record<string, string>) => Object.entries(values).forEach(([label, value]) => type(label, value));
/** react-admin disables the save button while the form validates; a click then would be lost. */
const submitForm = async (label: string) => {
  const button = screen.getByText(label, { selector: 'button' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false), wait);
  fireEvent.click(button);
};

/** Whether the mocks let `account` sign in with `code`. */
const signsIn = async (account: string, code: string) => {
  const { http } = await mockSession();
  return (await http.post<LoginResult>('/login', { Account: account, Code: code })).State;
};

describe('changing one\'s own password in user settings (/user/setting)', () => {
  it('checks the rule and the confirmation first, shows a wrong current password on its field, then changes it', async () => {
    await mockSession('user');
    renderAt('/user/setting?tab=security');
    await screen.findByLabelText('当前密码', {}, { timeout: 20_000 });
    expect(screen.getByRole('heading', { name: '修改密码' })).toBeTruthy();
    expect(screen.getByText('密码规则：至少 12 个字符，不含空格，须同时包含大写字母、小写字母和数字，且不能是常见密码。')).toBeTruthy();

    fill({ 当前密码: 'User2026', 新密码: 'Chamber2026', 确认新密码: 'Chamber2026' });
    await submitForm('修改密码');
    // The length in force, told by the user info.
    expect(await screen.findByText('至少 12 个字符', {}, wait)).toBeTruthy();
    fill({ 新密码: 'chamber2026x', 确认新密码: 'chamber2025x' });
    await submitForm('修改密码');
    expect(await screen.findByText('须包含大写字母', {}, wait)).toBeTruthy();
    expect(screen.getByText('两次输入的新密码不一致')).toBeTruthy();
    fill({ 新密码: 'User2026', 确认新密码: 'User2026' });
    expect(await screen.findByText('新密码不能与当前密码相同', {}, wait)).toBeTruthy();
    expect(selfResets()).toBe(0);

    fill({ 当前密码: 'Wrong2026', 新密码: 'Chamber2026ox', 确认新密码: 'Chamber2026ox' });
    await submitForm('修改密码');
    expect(await screen.findByText('当前密码错误', {}, wait)).toBeTruthy();
    expect(input('当前密码').getAttribute('aria-invalid')).toBe('true');
    // The HTTP client shows the server's own message too.
    expect(await screen.findByText('OldCode: the current password is wrong', {}, wait)).toBeTruthy();
    expect(selfResets()).toBe(1);

    type('当前密码', 'User2026');
    await submitForm('修改密码');
    expect(await screen.findByText('密码已修改', {}, wait)).toBeTruthy();
    expect(selfResets()).toBe(2);
    await waitFor(() => expect(input('当前密码').value).toBe(''), wait);
    expect(await signsIn('user', 'Chamber2026ox')).toBe(true);
    expect(await signsIn('user', 'User2026')).toBe(false);
  });

  it('says the same in English after switching the language', async () => {
    await mockSession('admin');
    renderAt('/user/setting?tab=security');
    await screen.findByLabelText('当前密码', {}, { timeout: 20_000 });
    fireEvent.click(screen.getByLabelText('切换语言'));
    fireEvent.click(await screen.findByText('English', {}, wait));
    await screen.findByLabelText('Current password', {}, wait);
    expect(screen.getByText('Password rule: at least 12 characters, no spaces, with upper and lower case letters and digits, and not a common password.')).toBeTruthy();
    fill({ 'Current password': 'Admin2026', 'New password': 'ChamberChamber', 'Confirm new password': 'ChamberChamber' });
    await submitForm('Change password');
    expect(await screen.findByText('Needs a digit', {}, wait)).toBeTruthy();
    fill({ 'New password': 'Chamber 2026x', 'Confirm new password': 'Chamber 2026x' });
    expect(await screen.findByText('No spaces', {}, wait)).toBeTruthy();
    expect(selfResets()).toBe(0);
    // The language lives on in the i18n provider (a module of the console), so the next test gets Chinese back.
    fireEvent.click(screen.getByLabelText('Language'));
    fireEvent.click(await screen.findByText('简体中文', {}, wait));
    await screen.findByLabelText('当前密码', {}, wait);
  });
});

/** The password the client chooses after its reset: the seeded demo one is shorter than the rule. */
const CLIENT_CHOSEN = 'Client2026ox';

describe('an account whose password was reset', () => {
  it('must choose a new password after sign-in before anything else, also after a reload, then goes on', async () => {
    const { http, tokens } = await mockSession('admin');
    const { NewCode } = await http.post<ResetAnswer>('/code/Admin_reset_Code', { Account: 'user' });
    tokens.clear();

    renderAt('/other/order-list?status=open');
    await signIn('user', NewCode);
    await screen.findByTestId('must-change-code', {}, { timeout: 20_000 });
    expect(path()).toBe(`/user/setting?redirect=${encodeURIComponent('/other/order-list?status=open')}`);
    expect(screen.getByText('您的密码已由管理员重置。设置自己的新密码后才能继续使用系统。')).toBeTruthy();
    expect(localStorage.getItem(MUST_CHANGE_CODE_KEY)).not.toBeNull();

    // A reload on another page keeps the obligation.
    cleanup();
    renderAt('/dashboard/workplace');
    await screen.findByTestId('must-change-code', {}, { timeout: 20_000 });
    expect(path()).toBe(`/user/setting?redirect=${encodeURIComponent('/dashboard/workplace')}`);
    // So does following the menu.
    fireEvent.click(within(await screen.findByTestId('console-menu')).getByText('订单列表'));
    await waitFor(() => expect(path()).toBe(`/user/setting?redirect=${encodeURIComponent('/other/order-list')}`), wait);

    fill({ 当前密码: NewCode, 新密码: 'Chamber2026ox', 确认新密码: 'Chamber2026ox' });
    await submitForm('修改密码');
    await waitFor(() => expect(path()).toBe('/other/order-list'), wait);
    expect(localStorage.getItem(MUST_CHANGE_CODE_KEY)).toBeNull();
    expect(await screen.findByText('第 1-10 条，共 55 条', {}, wait)).toBeTruthy();
    expect(await signsIn('user', 'Chamber2026ox')).toBe(true);
  });

  it('is refused everything else by the mocks (40300) until then, as by the server', async () => {
    const admin = await mockSession('admin');
    const { NewCode } = await admin.http.post<ResetAnswer>('/code/Admin_reset_Code', { Account: 'client' });
    const { http, tokens } = await mockSession();
    const login = await http.post<LoginResult>('/login', { Account: 'client', Code: NewCode });
    expect(login).toMatchObject({ State: true, mustChangeCode: true });
    if (login.State) tokens.set(login.token);
    await expect(http.post('/list/get_OCProperty', {})).rejects.toMatchObject({ code: 40300 });
    await expect(http.post('/api/user/info')).resolves.toMatchObject({ Account: 'client', Level: 3 });
    // A password of the client's own (the mocks keep passwords for the whole file: the next test signs in with it).
    await http.post('/code/self_reset_Code', { OldCode: NewCode, NewCode: CLIENT_CHOSEN });
    await expect(http.post('/list/get_OCProperty', {})).resolves.toMatchObject({ total: MOCK_CLIENT_DEVICES });
  });
});

describe('a client', () => {
  it('has no user manager in its menu and is sent away from /other/manager', async () => {
    renderAt('/other/manager');
    await signIn('client', CLIENT_CHOSEN);
    const menu = await screen.findByTestId('console-menu', {}, { timeout: 20_000 });
    await within(menu).findByText('工作台', {}, wait);
    expect(within(menu).queryByText('用户管理')).toBeNull();
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard/workplace'), wait);
    expect(calls.some((call) => call.endsWith('/get_Admins'))).toBe(false);
  });
});
