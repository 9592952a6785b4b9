import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { seedTables } from '../../../mocks/seed';
import { RESOURCE_CONFIGS } from '../../../src/resources/configs';
import { DEVICE_COMMANDS } from '../../../src/resources/devices/config';
import type { Telemetry } from '../../../src/domain/mqtt/payloads';
import { wait } from '../resources/dom';
import { REST, UPSTREAM } from '../resources/fixtures';
import { renderConsole } from '../resources/renderConsole';

/**
 * The device detail page against the msw mocks: the chamber as its operator reads it, its commands asking
 * first while a session runs (every seeded device is in one), the settings dialog starting from the
 * settings in force, and the command history with outcomes.
 */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const devices = seedTables(RESOURCE_CONFIGS).get('devices') ?? [];
/** A seeded device whose newest reading is strained (every seventh: mocks/readings.ts), so its marks show. */
const strained = devices[3] ?? {};
const DEVICE = String(strained.Id);
const NAME = String(strained.name);
const reading = strained.Reading as Telemetry;

/** The device commands the console sends, by path. */
const commandCalls = () => {
  const calls: string[] = [];
  server.events.on('request:start', ({ request }) => {
    const path = new URL(request.url).pathname.replace('/upstream', '');
    if (Object.values(DEVICE_COMMANDS).includes(path as never)) calls.push(path);
  });
  return calls;
};

const openDetail = async (account = 'admin') => {
  await renderConsole(`/devices/${encodeURIComponent(DEVICE)}/show`, { account });
  await screen.findByRole('heading', { level: 1, name: DEVICE }, wait);
};

const header = () => document.querySelector('[data-device-header]') as HTMLElement;
const reading$ = (key: string) => document.querySelector(`[data-reading="${key}"] dd`) as HTMLElement;
const setting$ = (key: string) => document.querySelector(`[data-setting="${key}"] dd`) as HTMLElement;

describe('the device detail', () => {
  it('shows who the chamber is, its readings in large numbers with the out-of-range ones marked, and the settings in force', async () => {
    await openDetail();
    expect(screen.getByText(NAME)).toBeTruthy();
    expect(screen.getByText(`会话中：${String(strained.SessionOC)} · 订单 ${String(strained.OrderNum)}`)).toBeTruthy();
    await waitFor(() => expect(reading$('RCP').textContent).toBe(`${reading.RCP?.toFixed(2)} / ${reading.SP?.toFixed(2)}`), wait);
    expect(reading$('RCPi02').querySelector('[data-mark="high"]')).toBeTruthy();
    expect(reading$('RCRH').querySelector('[data-mark]')).toBeNull();
    expect(setting$('SP').textContent).toBe(`${reading.SP} ATA`);
    expect(setting$('ST').textContent).toBe(`${reading.ST} 分钟`);
  });

  it('asks before closing the permission of a chamber in session, naming it, and sends nothing when cancelled', async () => {
    const calls = commandCalls();
    await openDetail();
        fireEvent.click(await within(header()).findByRole('button', { name: strained.Permission === 'Open' ? '关闭权限' : '开启权限' }, wait));
    if (strained.Permission !== 'Open') {
      // Opening goes at once; the chamber is now open, so the next click closes it.
      await waitFor(() => expect(calls).toEqual([DEVICE_COMMANDS.changePermission]), wait);
      fireEvent.click(await within(header()).findByRole('button', { name: '关闭权限' }, wait));
    }
    const sent = calls.length;
    const dialog = await screen.findByRole('dialog', {}, wait);
    expect(within(dialog).getByText(`${DEVICE}（${NAME}）正在会话中，确定关闭其开关权限吗？`)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), wait);
    expect(calls).toHaveLength(sent);

    fireEvent.click(within(header()).getByRole('button', { name: '关闭权限' }));
    fireEvent.click(within(await screen.findByRole('dialog', {}, wait)).getByRole('button', { name: '确定执行' }));
    await waitFor(() => expect(calls).toHaveLength(sent + 1), wait);
    expect(calls.at(-1)).toBe(DEVICE_COMMANDS.changePermission);
  });

  it('starts the settings dialog from the settings in force, sends only what changed after a confirmation naming it, and lists the command', async () => {
    const bodies: unknown[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith(DEVICE_COMMANDS.changeSettings)) void request.clone().json().then((body) => bodies.push(body));
    });
    await openDetail();
    fireEvent.click(await within(header()).findByRole('button', { name: '设置参数' }, wait));
    const dialog = await screen.findByRole('dialog', {}, wait);
    const pressure = within(dialog).getByLabelText('设定压力') as HTMLInputElement;
    expect(pressure.value).toBe(String(reading.SP));
    expect((within(dialog).getByLabelText('设定时间') as HTMLInputElement).value).toBe(String(reading.ST));

    fireEvent.click(within(dialog).getByRole('button', { name: '下发' }));
    expect(await within(dialog).findByText('参数与当前生效值相同，没有要下发的改动', {}, wait)).toBeTruthy();

    // Within every type's rating (1.3 ATA the lowest), so the dialog asks rather than refuses.
    const next = reading.SP === 1.2 ? 1.1 : 1.2;
    fireEvent.change(pressure, { target: { value: String(next) } });
    fireEvent.click(within(dialog).getByRole('button', { name: '下发' }));
    const question = await screen.findByText(`${DEVICE}（${NAME}）正在会话中，确定下发新参数吗？设定压力 ${reading.SP} → ${next}`, {}, wait);
    expect(bodies).toEqual([]);
    fireEvent.click(within(question.closest('[role="dialog"]') as HTMLElement).getByRole('button', { name: '确定执行' }));
    await waitFor(() => expect(bodies).toEqual([{ Id: DEVICE, SP: next }]), wait);

    // The alarms come first among the tabs; the commands are the next.
    fireEvent.click(await screen.findByRole('tab', { name: '指令记录' }, wait));
    const history = await screen.findByRole('table', { name: '指令记录' }, wait);
    await waitFor(() => expect(within(history).getByText(`SP ${next}`)).toBeTruthy(), wait);
    const row = within(history).getByText(`SP ${next}`).closest('tr') as HTMLElement;
    expect(within(row).getByText('admin')).toBeTruthy();
    expect(within(row).getByText(/^(等待设备应答|设备已确认)$/)).toBeTruthy();
  });
});
