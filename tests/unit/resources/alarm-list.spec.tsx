import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { DEFAULT_DEVICE_TYPES } from '../../../src/domain/deviceTypes';
import { canAccess } from '../../../src/domain/policy';
import { column, input, submit, type, wait } from './dom';

/** The first page of a render waits for the console's chunks too, on a machine others share. */
const firstPage = { timeout: 30_000 };
import { REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';

/**
 * The alarm list and page generated from the alarms' configuration, against the mocked alarms (mocks/alarms.ts:
 * alarm 1 active and unacknowledged, 2 acknowledged, 3 returned, 4 shelved, 5 suppressed, 6 the emergency,
 * 7 and 8 closed): what each role is offered on each state, the dialogs' validation, the history.
 */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** The row of an alarm by its number, read from the DOM (role queries over a whole list take seconds in jsdom). */
const rowOf = (id: number) => {
  const index = column('报警编号').indexOf(String(id));
  return document.querySelectorAll('table tbody tr')[index] as HTMLElement;
};
/** A dialog's input by its label; a required one's label ends in an asterisk. */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}( \\*)?$`)) as HTMLInputElement;
const fill = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const actionsOf = (row: HTMLElement) => [...row.querySelectorAll('button[aria-label]')].map((button) => button.getAttribute('aria-label'));

// Each test walks through several dialogs and re-reads of a whole list: on a shared machine that is slow.
describe('the alarm list', { timeout: 120_000 }, () => {
  it('opens on the open alarms, with labels, a priority chip, values in their kind’s unit and the actions each state allows', async () => {
    await renderConsole('/alarms', { account: 'user' });
    expect(await screen.findByText('第 1-6 条，共 6 条', {}, firstPage)).toBeTruthy();
    expect(column('状态')).not.toContain('已关闭');
    expect(column('报警类型')[0]).toBe('舱内氧浓度高');
    expect(column('优先级')[0]).toBe('高');
    expect(rowOf(1).querySelector('.MuiChip-colorError')).not.toBeNull();
    expect(column('报警值')[0]).toBe('23.6 %');
    expect(column('阈值')[1]).toBe('26 °C');
    await waitFor(() => expect(column('设备编号')[0]).toBe('Id-001'), wait);
    await waitFor(() => expect(actionsOf(rowOf(1))).toEqual(['确认', '搁置', '停用关闭']), wait);
    expect(actionsOf(rowOf(2))).toEqual(['搁置', '停用关闭']);
    expect(actionsOf(rowOf(4))).toEqual(['取消搁置', '停用关闭']);
    expect(actionsOf(rowOf(5))).toEqual(['停用关闭']);
    // The device is a link to its detail page.
    expect(rowOf(1).querySelector('a[href="/devices/Id-001/show"]')).not.toBeNull();
  });

  it('shows the closed ones when the state filter asks for them', async () => {
    await renderConsole(`/alarms?filter=${encodeURIComponent(JSON.stringify({ state: ['closed'] }))}`);
    expect(await screen.findByText('第 1-2 条，共 2 条', {}, firstPage)).toBeTruthy();
    expect(new Set(column('状态'))).toEqual(new Set(['已关闭']));
    // Nothing to do on a closed alarm.
    expect(actionsOf(rowOf(7))).toEqual([]);
  });

  it('offers a client Acknowledge only', async () => {
    await renderConsole('/alarms', { account: 'client', policy: (_role, request) => canAccess('client', request) });
    await screen.findByText('第 1-6 条，共 6 条', {}, firstPage);
    await waitFor(() => expect(actionsOf(rowOf(1))).toEqual(['确认']), wait);
    expect(actionsOf(rowOf(3))).toEqual(['确认']);
    for (const id of [2, 4, 5]) expect(actionsOf(rowOf(id))).toEqual([]);
  });

  it('shelves after a dialog that names what is missing or too much, and the row shows it shelved', async () => {
    await renderConsole('/alarms', { account: 'user' });
    await screen.findByText('第 1-6 条，共 6 条', {}, firstPage);
    await waitFor(() => expect(actionsOf(rowOf(1))).toContain('搁置'), wait);
    fireEvent.click(within(rowOf(1)).getByRole('button', { name: '搁置' }));
    const dialog = await screen.findByRole('dialog', { name: '搁置报警 1' }, wait);
    expect(field('搁置时长（分钟）').value).toBe('60');
    await submit('搁置');
    expect(await within(dialog).findByText('必填', {}, wait)).toBeTruthy();
    fill('搁置时长（分钟）', '0');
    fill('原因', '传感器校准');
    await submit('搁置');
    expect(await within(dialog).findByText('不能小于 1', {}, wait)).toBeTruthy();
    // Beyond the server's maximum (60 by default): its refusal shows under the field it names.
    fill('搁置时长（分钟）', '90');
    await submit('搁置');
    expect(await within(dialog).findByText(/^minutes/, {}, wait)).toBeTruthy();
    fill('搁置时长（分钟）', '30');
    await submit('搁置');
    expect(await screen.findByText('报警 1 已搁置', {}, wait)).toBeTruthy();
    await waitFor(() => expect(column('状态')[column('报警编号').indexOf('1')]).toBe('已搁置'), wait);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('acknowledges with a comment and closes out of service only with a reason, in English', async () => {
    await renderConsole('/alarms', { account: 'admin', locale: 'en-US' });
    await screen.findByText('1-6 of 6', {}, firstPage);
    const row = (id: number) => {
      const index = column('Alarm No.').indexOf(String(id));
      return document.querySelectorAll('table tbody tr')[index] as HTMLElement;
    };
    await waitFor(() => expect(actionsOf(row(3))).toEqual(['Acknowledge', 'Shelve', 'Close out of service']), wait);
    fireEvent.click(within(row(3)).getByRole('button', { name: 'Acknowledge' }));
    await screen.findByRole('dialog', { name: 'Acknowledge alarm 3' }, wait);
    fill('Comment', 'humidifier refilled');
    await submit('Acknowledge');
    // Returned and acknowledged, it closes and leaves the open list.
    expect(await screen.findByText('Alarm 3 acknowledged', {}, wait)).toBeTruthy();
    await screen.findByText('1-5 of 5', {}, wait);

    fireEvent.click(within(row(5)).getByRole('button', { name: 'Close out of service' }));
    const dialog = await screen.findByRole('dialog', { name: 'Close alarm 5 out of service' }, wait);
    await submit('Close out of service');
    expect(await within(dialog).findByText('Required', {}, wait)).toBeTruthy();
    fill('Reason', 'chamber in repair');
    await submit('Close out of service');
    await screen.findByText('1-4 of 4', {}, wait);
  });
});

describe('an alarm’s page', { timeout: 120_000 }, () => {
  it('shows its fields, its history of transitions with state labels and who, and its actions', async () => {
    await renderConsole('/alarms/2/show', { account: 'user' });
    const history = await screen.findByRole('table', { name: '状态变化记录' }, firstPage);
    const rows = [...history.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('td')].slice(1).map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['产生 → 报警中，未确认', '系统', ''],
      ['报警中，未确认 → 报警中，已确认', 'user', 'air conditioning checked'],
    ]);
    expect(screen.getByText('舱内温度')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('button', { name: '搁置' })).toBeTruthy(), wait);
    expect(screen.queryByRole('button', { name: '确认' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '搁置' }));
    await screen.findByRole('dialog', { name: '搁置报警 2' }, wait);
    fill('原因', '空调维修中');
    await submit('搁置');
    await waitFor(() => expect(history.querySelectorAll('tbody tr')).toHaveLength(3), wait);
    expect(history.querySelectorAll('tbody tr')[2]?.textContent).toContain('报警中，已确认 → 已搁置');
  });
});

describe('the alarm rules', () => {
  it('lists every type’s rules by type name, with limits in their kind’s unit and delays in seconds', async () => {
    await renderConsole('/alarm-rules', { account: 'user' });
    expect(await screen.findByText('第 1-10 条，共 50 条', {}, firstPage)).toBeTruthy();
    await waitFor(() => expect(column('设备类型')[0]).toBe(DEFAULT_DEVICE_TYPES[0]?.name), wait);
    expect(column('一般报警上限')[0]).toBe('23 %');
    expect(column('报警延时 (秒)')[0]).toBe('3');
    // Only the admin edits them.
    expect(document.querySelector('table tbody a[href$="/alarm-rules/1"]')).toBeNull();
  });

  it('lets the admin edit a rule, its limits labelled with the kind’s unit, naming a field out of bounds', async () => {
    await renderConsole('/alarm-rules/1');
    await waitFor(() => expect(input('一般报警上限 (%)').value).toBe('23'), firstPage);
    type('报警延时 (秒)', '4000');
    await submit('保存');
    expect(await screen.findByText('不能大于 3600', {}, wait)).toBeTruthy();
    type('报警延时 (秒)', '5');
    await submit('保存');
    await waitFor(() => expect(document.querySelector('input')).toBeNull(), wait);
    expect(screen.getByText('5')).toBeTruthy();
  });
});
