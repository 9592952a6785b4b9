import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { canAccess } from '../../../src/domain/policy';
import { DEFAULT_PASSWORD_MIN_LENGTH, passwordProblem } from '../../../src/domain/password';
import { bodyRows, wait } from '../resources/dom';
import { REST, UPSTREAM } from '../resources/fixtures';
import { renderConsole } from '../resources/renderConsole';

const server = createMockServer(UPSTREAM, REST);
/** The bodies the console sent, by path. */
const sent: { path: string; body: unknown }[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => {
    const path = new URL(request.url).pathname.replace('/upstream', '');
    void request
      .clone()
      .json()
      .then((body: unknown) => sent.push({ path, body }))
      .catch(() => undefined);
  });
});
afterEach(() => {
  server.resetHandlers();
  sent.length = 0;
  vi.restoreAllMocks();
});
afterAll(() => server.close());

/** One column's cells, by wire name (react-admin's datagrid marks each cell with `column-<source>`). */
const cells = (source: string) => bodyRows().map((row) => row.querySelector(`td.column-${source}`)?.textContent);
const rowOf = (account: string) => {
  const row = bodyRows().find((candidate) => candidate.querySelector('td.column-Account')?.textContent === account);
  if (!row) throw new Error(`no row for ${account}`);
  return row as HTMLElement;
};
/** react-admin's buttons carry their label as aria-label; a role query over a whole page is slow in jsdom. */
const labelled = (label: string, root: ParentNode = document) => root.querySelector(`[aria-label="${label}"]`);
const dialogOf = (element: HTMLElement) => element.closest('[role="dialog"]') as HTMLElement;
const bodiesTo = (path: string) => sent.filter((call) => call.path === path).map((call) => call.body);

describe('the account list at /other/manager (the accounts resource)', () => {
  it('shows Account, SubId, Level and SubAdmin in that order, and the managed devices', async () => {
    await renderConsole('/accounts');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    // The configuration's columns in order (no selection column: an account is deleted from its own row).
    const headers = [...document.querySelectorAll('table thead th')].map((header) => header.textContent);
    expect(headers.slice(0, 6)).toEqual(['账号', '上级管理员编号', '账号级别', '上级管理员', '管理的设备', '已停用']);
    expect(cells('Account')).toHaveLength(10);
    expect(cells('Account')[0]).toBe('Account-001');
    expect(cells('SubId')[0]).toBe('849');
    expect(cells('Level')[0]).toBe('二级管理员');
    await waitFor(() => expect(cells('SubAdmin')[0]).toBe('Account-024'), wait);
    await waitFor(() => expect(cells('DeviceIds')[0]).toBe('name-011'), wait);
  });

  it('lets an administrator reset a password and shows the NewCode once, with a working copy button', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderConsole('/accounts', { account: 'admin' });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    fireEvent.click(await within(rowOf('Account-001')).findByText('重置密码', {}, wait));

    // Nothing happens before the administrator confirms.
    const confirm = dialogOf(await screen.findByText('重置 Account-001 的密码？', {}, wait));
    expect(bodiesTo('/code/Admin_reset_Code')).toEqual([]);
    fireEvent.click(within(confirm).getByText('确认'));

    const shown = await screen.findByTestId('new-code', {}, wait);
    const code = shown.textContent ?? '';
    expect(passwordProblem(code, { minLength: DEFAULT_PASSWORD_MIN_LENGTH })).toBeNull();
    expect(bodiesTo('/code/Admin_reset_Code')).toEqual([{ Account: 'Account-001' }]);
    const dialog = dialogOf(shown);
    expect(within(dialog).getByText('Account-001 的新密码')).toBeTruthy();
    expect(within(dialog).getByText('新密码只显示这一次，关闭后无法再次查看。请立即复制，并通过安全的方式交给账号本人。')).toBeTruthy();

    fireEvent.click(within(dialog).getByText('复制新密码'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(code), wait);
    expect(await screen.findByText('新密码已复制到剪贴板', {}, wait)).toBeTruthy();

    fireEvent.click(within(dialog).getByText('关闭'));
    await waitFor(() => expect(screen.queryByTestId('new-code')).toBeNull(), wait);
    expect(document.body.textContent).not.toContain(code);
  });

  it('says so when the clipboard cannot be reached, in English', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) }, configurable: true });
    await renderConsole('/accounts', { locale: 'en-US' });
    await screen.findByText('1-10 of 55', {}, wait);
    fireEvent.click(await within(rowOf('Account-001')).findByText('Reset password', {}, wait));
    fireEvent.click(within(dialogOf(await screen.findByText('Reset the password of Account-001?', {}, wait))).getByText('Confirm'));
    const dialog = dialogOf(await screen.findByText('New password of Account-001', {}, wait));
    expect(within(dialog).getByText(/shown only this once/)).toBeTruthy();
    fireEvent.click(within(dialog).getByText('Copy new password'));
    expect(await screen.findByText('The clipboard cannot be reached; select the new password and copy it by hand', {}, wait)).toBeTruthy();
  });

  it('assigns exactly the chosen devices, preselecting the account\'s own, and refreshes the list', async () => {
    await renderConsole('/accounts');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    fireEvent.click(await within(rowOf('Account-002')).findByText('分配设备', {}, wait));
    const dialog = dialogOf(await screen.findByText('为 Account-002 分配设备', {}, wait));

    // The account's devices are preselected; take one away and add another.
    const chip = (await within(dialog).findByText('Id-052 · name-052', {}, wait)).closest('.MuiChip-root') as HTMLElement;
    expect(within(dialog).getByText('Id-030 · name-030')).toBeTruthy();
    fireEvent.click(within(chip).getByTestId('CancelIcon'));
    await waitFor(() => expect(within(dialog).queryByText('Id-052 · name-052')).toBeNull(), wait);
    fireEvent.change(dialog.querySelector('input[role="combobox"]') as HTMLInputElement, { target: { value: 'Id-050' } });
    fireEvent.click(await screen.findByText('Id-050 · name-050', { selector: 'li' }, wait));
    await within(dialog).findByText('Id-050 · name-050', { selector: '.MuiChip-label' }, wait);

    fireEvent.click(within(dialog).getByText('保存'));
    expect(await screen.findByText('设备分配已保存', {}, wait)).toBeTruthy();
    expect(bodiesTo('/assign_Devices')).toEqual([{ Account: 'Account-002', DeviceIds: ['Id-030', 'Id-050'] }]);
    await waitFor(() => expect(cells('DeviceIds')[1]).toBe('name-030name-050'), wait);
    // The dialog closes with a transition: gone once it has run.
    await waitFor(() => expect(document.querySelector('[role="dialog"]')).toBeNull(), wait);
  });

  it('offers no commands to a role the policy refuses them', async () => {
    // A role that may list accounts but neither reset passwords nor assign devices.
    const listOnly = (_role: unknown, request: { action: string; resource: string }) =>
      request.action === 'list' || request.action === 'show' || request.action === 'export';
    await renderConsole('/accounts', { policy: listOnly });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    await waitFor(() => expect(labelled('导出')).not.toBeNull(), wait);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(labelled('重置密码')).toBeNull();
    expect(labelled('分配设备')).toBeNull();
    expect(labelled('新建')).toBeNull();
  });

  it('shows both commands to an administrator, and no device assignment for a super administrator row', async () => {
    await renderConsole('/accounts', { policy: canAccess });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    await waitFor(() => expect(labelled('分配设备', rowOf('Account-004'))).not.toBeNull(), wait);
    // Account-003 is a super administrator in the seeded data: it manages every device by its level.
    expect(labelled('重置密码', rowOf('Account-003'))).not.toBeNull();
    expect(labelled('分配设备', rowOf('Account-003'))).toBeNull();
  });
});
