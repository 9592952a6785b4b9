import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { canAccess } from '../../../src/domain/policy';
import { bodyRows, column, wait } from './dom';
import { REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const firstRow = () => bodyRows()[0] as HTMLElement;

/** Every seeded device is in session: closing its permission and setting Repair go once the operator confirms. */
const confirmInSession = async () =>
  fireEvent.click(within(await screen.findByRole('dialog', { name: '氧舱正在会话中' }, wait)).getByRole('button', { name: '确定执行' }));

describe('device commands in the device list (custom data provider methods through useMutation)', () => {
  it('switches a device\'s permission and sets its state, staying on the list', async () => {
    await renderConsole('/devices', { account: 'user' });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    const before = column('开关权限')[0];
    fireEvent.click(await within(firstRow()).findByRole('button', { name: before === '开启' ? '关闭权限' : '开启权限' }, wait));
    if (before === '开启') await confirmInSession();
    // The mocked chamber acknowledges a second later: sent, then confirmed.
    expect(await screen.findByText(/：指令已发送，等待氧舱应答$/, {}, wait)).toBeTruthy();
    expect(await screen.findByText(/：氧舱已确认执行$/, {}, { timeout: 5000 })).toBeTruthy();
    await waitFor(() => expect(column('开关权限')[0]).toBe(before === '开启' ? '关闭' : '开启'), wait);

    const target = column('状态')[0] === '维修中' ? '空闲' : '维修中';
    fireEvent.click(within(firstRow()).getByRole('button', { name: '设置状态' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: target }, wait));
    if (target === '维修中') await confirmInSession();
    await waitFor(() => expect(column('状态')[0]).toBe(target), wait);
    expect(column('设备编号')).toHaveLength(10);
  });

  it('shows no commands to a role the policy refuses them (a client)', async () => {
    await renderConsole('/devices', { policy: (_role, request) => canAccess('client', request) });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    await screen.findByRole('button', { name: '导出' }, wait);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(within(firstRow()).queryByRole('button', { name: '设置状态' })).toBeNull();
    expect(within(firstRow()).queryByRole('button', { name: /权限$/ })).toBeNull();
  });
});
