import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMockServer } from '../../../mocks/node';
import { ok } from '../../../mocks/envelope';
import { canAccess } from '../../../src/domain/policy';
import type { DeviceCommandRecord } from '../../../src/resources/devices/requests';
import { DEVICE_COMMANDS } from '../../../src/resources/devices/config';
import { bodyRows, column, wait } from './dom';
import { REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';

/**
 * The device row's settings dialog and what the operator is told after any command:
 * the console against the msw mocks, with the command calls and `GET /api/v1/device-commands/:cmdId`
 * answered here as our server answers them.
 */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A command's answers, read after read; the last one repeats. */
const serveCommand = (cmdId: string, ...states: Pick<DeviceCommandRecord, 'status' | 'error'>[]) => {
  const reads: string[] = [];
  server.use(
    http.get(`${REST}/device-commands/:id`, ({ params }) => {
      reads.push(String(params.id));
      if (params.id !== cmdId) return HttpResponse.json({ message: 'not found', code: 40400 }, { status: 404 });
      const state = states[Math.min(reads.length - 1, states.length - 1)] ?? { status: 'sent', error: null };
      return HttpResponse.json({ id: cmdId, Id: 'Id-001', type: 'settings', actor: 'admin', issuedAt: 1, answeredAt: null, command: {}, ...state });
    }),
  );
  return reads;
};

/** Settings calls: their bodies, each answered with the device and a command id. */
const serveSettings = (cmdId: string) => {
  const bodies: unknown[] = [];
  server.use(
    http.post(`${UPSTREAM}${DEVICE_COMMANDS.changeSettings}`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      return ok({ Id: body.Id, cmdId });
    }),
  );
  return bodies;
};

const firstRow = () => bodyRows()[0] as HTMLElement;
const rowOf = (Id: string) => {
  const row = bodyRows().find((candidate) => candidate.textContent?.includes(Id));
  if (row === undefined) throw new Error(`no row ${Id} on this page`);
  return row as HTMLElement;
};
const openSettings = async (name = '设置参数') => {
  fireEvent.click(await within(firstRow()).findByRole('button', { name }, wait));
  return screen.findByRole('dialog', {}, wait);
};
/** Every seeded device is in session: the change is sent once the operator confirms it. */
const confirmInSession = async (title = '氧舱正在会话中', go = '确定执行') =>
  fireEvent.click(within(await screen.findByRole('dialog', { name: title }, wait)).getByRole('button', { name: go }));
const field = (dialog: HTMLElement, label: string) => within(dialog).getByLabelText(label) as HTMLInputElement;
/** Picks an option of a react-admin SelectInput (a MUI select: open it, choose). */
const choose = async (dialog: HTMLElement, label: string, option: string) => {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }, wait));
};

describe('device settings (a dialog on the device row, then the chamber\'s answer)', () => {
  it('validates against the contract\'s ranges, in Chinese, and refuses an empty change, before sending anything', async () => {
    const bodies = serveSettings('cmd-never');
    await renderConsole('/devices', { account: 'admin' });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    const dialog = await openSettings();
    expect(within(dialog).getByText(new RegExp(`设置参数：${String(column('设备编号')[0])}`))).toBeTruthy();

    fireEvent.change(field(dialog, '设定压力'), { target: { value: '3.5' } });
    fireEvent.change(field(dialog, '设定时间'), { target: { value: '1.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '下发' }));
    expect(await within(dialog).findByText('不能大于 3', {}, wait)).toBeTruthy();
    expect(within(dialog).getByText('必须是整数')).toBeTruthy();

    fireEvent.change(field(dialog, '设定压力'), { target: { value: '' } });
    fireEvent.change(field(dialog, '设定时间'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '下发' }));
    expect(await within(dialog).findByText('请至少填写一项参数', {}, wait)).toBeTruthy();
    expect(bodies).toEqual([]);
  });

  it("shows the device type's rating and refuses a set point above it, in both languages, before sending; exactly at it is sent", async () => {
    const bodies = serveSettings('cmd-rated');
    serveCommand('cmd-rated', { status: 'acked', error: null });
    await renderConsole('/devices', { account: 'admin' });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    // The mocks' Id-006 is a soft single-seat chamber (type 1, rated 1.3 ATA) that reports SP 2 in force.
    const row = rowOf('Id-006');
    fireEvent.click(await within(row).findByRole('button', { name: '设置参数' }, wait));
    const dialog = await screen.findByRole('dialog', {}, wait);
    expect(await within(dialog).findByText('1–1.3 ATA：单人软体舱额定最高压力 1.3 ATA', {}, wait)).toBeTruthy();
    expect(field(dialog, '设定压力').max).toBe('1.3');
    fireEvent.change(field(dialog, '设定压力'), { target: { value: '1.31' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '下发' }));
    expect(await within(dialog).findByText('不能大于 1.3 ATA，即单人软体舱的额定最高压力', {}, wait)).toBeTruthy();
    expect(bodies).toEqual([]);
    fireEvent.change(field(dialog, '设定压力'), { target: { value: '1.3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '下发' }));
    await confirmInSession();
    await waitFor(() => expect(bodies).toEqual([{ Id: 'Id-006', SP: 1.3 }]), wait);
    // The command is followed to its end, so that no read of it runs into the next test.
    expect(await screen.findByText('Id-006：氧舱已确认执行', {}, wait)).toBeTruthy();
  });

  it('words the rating in English, and leaves a set point in force above it alone when only other settings change', async () => {
    const bodies = serveSettings('cmd-rated-en');
    serveCommand('cmd-rated-en', { status: 'acked', error: null });
    await renderConsole('/devices', { account: 'admin', locale: 'en-US' });
    await screen.findByText('1-10 of 55', {}, wait);
    fireEvent.click(await within(rowOf('Id-002')).findByRole('button', { name: 'Change settings' }, wait));
    let dialog = await screen.findByRole('dialog', {}, wait);
    expect(await within(dialog).findByText('1–1.5 ATA: 单人硬体舱 is rated 1.5 ATA', {}, wait)).toBeTruthy();
    fireEvent.change(field(dialog, 'Set pressure'), { target: { value: '1.6' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Must be at most 1.5 ATA, the rated maximum of 单人硬体舱', {}, wait)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), wait);

    // Id-006 reports SP 2 on a type rated 1.3: the SP is not sent, so a new set time goes out alone.
    fireEvent.click(await within(rowOf('Id-006')).findByRole('button', { name: 'Change settings' }, wait));
    dialog = await screen.findByRole('dialog', {}, wait);
    expect(field(dialog, 'Set pressure').value).toBe('2');
    fireEvent.change(field(dialog, 'Set time'), { target: { value: '45' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await confirmInSession('A session is running', 'Go ahead');
    await waitFor(() => expect(bodies).toEqual([{ Id: 'Id-006', ST: 45 }]), wait);
    expect(await screen.findByText('Id-006: confirmed by the chamber', {}, wait)).toBeTruthy();
  });

  it('sends only the settings filled in, then reports "sent, waiting" and the chamber\'s confirmation', async () => {
    const bodies = serveSettings('cmd-ok');
    const reads = serveCommand('cmd-ok', { status: 'sent', error: null }, { status: 'acked', error: null });
    await renderConsole('/devices', { account: 'admin' });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    const Id = String(column('设备编号')[0]);
    let dialog = await openSettings();
    fireEvent.change(field(dialog, '设定压力'), { target: { value: '1.5' } });
    await choose(dialog, '加压速度', '慢');
    await choose(dialog, '氛围灯', '开');
    // The set time starts at the one in force (60 minutes) and is left so: it is not sent.
    expect(field(dialog, '设定时间').value).toBe('60');
    fireEvent.click(within(dialog).getByRole('button', { name: '下发' }));
    await confirmInSession();
    await waitFor(() => expect(bodies).toEqual([{ Id, SP: 1.5, SS: 'S', SA: 1 }]), wait);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), wait);
    expect(await screen.findByText(`${Id}：指令已发送，等待氧舱应答`, {}, wait)).toBeTruthy();
    expect(await screen.findByText(`${Id}：氧舱已确认执行`, {}, wait)).toBeTruthy();
    // Read once a second until the status is final, and not after.
    expect(reads).toEqual(['cmd-ok', 'cmd-ok']);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(reads).toHaveLength(2);

    // A second opening starts again from the settings in force (the chamber has not reported new ones).
    dialog = await openSettings();
    expect(field(dialog, '设定压力').value).toBe('1.3');
  });

  it('speaks English, and reports a refusal with the chamber\'s reason', async () => {
    const bodies = serveSettings('cmd-refused');
    serveCommand('cmd-refused', { status: 'refused', error: 'door open: settings locked' });
    await renderConsole('/devices', { account: 'admin', locale: 'en-US' });
    await screen.findByText('1-10 of 55', {}, wait);
    const Id = String(column('Device ID')[0]);
    const dialog = await openSettings('Change settings');
    fireEvent.change(field(dialog, 'Set pressure'), { target: { value: '0.5' } });
    fireEvent.change(field(dialog, 'Set time'), { target: { value: '241' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Must be at least 1', {}, wait)).toBeTruthy();
    expect(within(dialog).getByText('Must be at most 240')).toBeTruthy();
    fireEvent.change(field(dialog, 'Set pressure'), { target: { value: '' } });
    fireEvent.change(field(dialog, 'Set time'), { target: { value: '240' } });
    await choose(dialog, 'Light', 'off');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    await confirmInSession('A session is running', 'Go ahead');
    await waitFor(() => expect(bodies).toEqual([{ Id, ST: 240, SL: 0 }]), wait);
    expect(await screen.findByText(`${Id}: refused by the chamber: door open: settings locked`, {}, wait)).toBeTruthy();
  });

  it('after a permission switch: "no answer from the chamber" when the command times out', async () => {
    server.use(
      http.post(`${UPSTREAM}${DEVICE_COMMANDS.changePermission}`, async ({ request }) => {
        const { Id } = (await request.json()) as { Id: string };
        return ok({ Id, cmdId: 'cmd-silent' });
      }),
    );
    serveCommand('cmd-silent', { status: 'sent', error: null }, { status: 'timeout', error: null });
    await renderConsole('/devices', { account: 'user', locale: 'en-US' });
    await screen.findByText('1-10 of 55', {}, wait);
    const Id = String(column('Device ID')[0]);
    fireEvent.click(await within(firstRow()).findByRole('button', { name: /permission$/ }, wait));
    expect(await screen.findByText(`${Id}: sent, waiting for the chamber`, {}, wait)).toBeTruthy();
    expect(await screen.findByText(`${Id}: no answer from the chamber`, {}, wait)).toBeTruthy();
  });

  it('is offered to the roles that may change settings only (not a second-level administrator)', async () => {
    await renderConsole('/devices', { policy: (_role, request) => canAccess('lowUser', request) });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    await within(firstRow()).findByRole('button', { name: '设置状态' }, wait);
    expect(within(firstRow()).queryByRole('button', { name: '设置参数' })).toBeNull();
  });
});
