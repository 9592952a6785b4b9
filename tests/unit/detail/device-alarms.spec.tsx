import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMockServer } from '../../../mocks/node';
import { seedTables } from '../../../mocks/seed';
import type { AlarmRecord, AlarmTransition } from '../../../src/domain/alarms/record';
import { RESOURCE_CONFIGS } from '../../../src/resources/configs';
import { wait } from '../resources/dom';
import { REST, UPSTREAM } from '../resources/fixtures';
import { renderConsole } from '../resources/renderConsole';
import { alarmRecord } from '../../fixtures/alarms';

/**
 * The device detail's alarms against the mocks, with the alarm calls answered here as the server answers
 * them (docs/alarms.md, "REST"): the header's standing alarms, the alarms tab first, a page of the device's
 * alarms newest first, an alarm's history, and acknowledging one.
 */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const devices = seedTables(RESOURCE_CONFIGS).get('devices') ?? [];
const DEVICE = String(devices[3]?.Id);
const T0 = Date.UTC(2026, 10, 26, 9);

const alarm = (id: number, more: Partial<AlarmRecord> = {}): AlarmRecord => alarmRecord(id, { deviceId: DEVICE, raisedAt: T0 + id * 60_000, ...more });

/** The device's alarms, newest raised first: 12 of them, so the tab pages; the newest two stand. */
const alarmsOf = (): AlarmRecord[] => [
  alarm(12),
  alarm(11, { kind: 'temperature', priority: 'medium', value: 27.1, threshold: 26, state: 'active-acked', ackedAt: T0, ackedBy: 'first' }),
  ...Array.from({ length: 10 }, (_, index) => alarm(10 - index, { state: 'closed', closedAt: T0 + (10 - index) * 60_000 + 30_000 })),
];

const HISTORY: AlarmTransition[] = [{ id: 1, at: T0 + 12 * 60_000, from: null, to: 'active-unacked', actor: 'system', comment: null }];

/** Answers the alarm calls; records the list queries and acknowledgements. */
const answerAlarms = () => {
  const held = alarmsOf();
  const calls = { lists: [] as URLSearchParams[], acks: [] as string[] };
  server.use(
    http.get(`${REST}/alarms`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      calls.lists.push(query);
      const filter = JSON.parse(query.get('filter') ?? '{}') as { state?: string[]; deviceId?: string[] };
      const matching = held.filter((each) => (!filter.state || filter.state.includes(each.state)) && (!filter.deviceId || filter.deviceId.includes(each.deviceId)));
      const [from, to] = JSON.parse(query.get('range') ?? '[0,9]') as [number, number];
      return HttpResponse.json(matching.slice(from, to + 1), { headers: { 'Content-Range': `alarms ${from}-${to}/${matching.length}`, 'Access-Control-Expose-Headers': 'Content-Range' } });
    }),
    http.get(`${REST}/alarms/:id/history`, () => HttpResponse.json(HISTORY)),
    http.post(`${REST}/alarms/:id/ack`, ({ params }) => {
      const index = held.findIndex((each) => each.id === Number(params.id));
      calls.acks.push(String(params.id));
      held[index] = { ...(held[index] as AlarmRecord), state: 'active-acked', ackedAt: T0 + 13 * 60_000, ackedBy: 'admin' };
      return HttpResponse.json(held[index]);
    }),
  );
  return calls;
};

const header = () => document.querySelector('[data-device-header]') as HTMLElement;
const alarmRow = (id: number) => document.querySelector(`tr[data-alarm-row="${id}"]`) as HTMLElement;

describe("the device detail's alarms", () => {
  it('shows the standing alarms in the header, and the alarms tab first with the newest page of them', async () => {
    const calls = answerAlarms();
    await renderConsole(`/devices/${encodeURIComponent(DEVICE)}/show`);
    await screen.findByRole('heading', { level: 1, name: DEVICE }, wait);
    await waitFor(() => expect(header().querySelector('[data-alarm-count]')?.getAttribute('data-alarm-count')).toBe('2'), wait);
    expect(within(header()).getByText('2 条报警')).toBeTruthy();
    expect(header().querySelector('[data-alarm-chip]')?.textContent).toBe('舱内氧浓度高 · 高优先级');

    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['报警', '指令记录', '最近订单', '审计日志']);
    expect(screen.getByRole('tab', { name: '报警' }).getAttribute('aria-selected')).toBe('true');
    const table = await screen.findByRole('table', { name: '报警' }, wait);
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(11), wait);
    expect(alarmRow(12)).toBeTruthy();
    expect(within(alarmRow(11)).getByText('27.1 °C / 26.0 °C')).toBeTruthy();
    expect(within(alarmRow(11)).getByText('报警中，已确认')).toBeTruthy();
    // The device's alarms only, exactly its Id, newest raised first.
    const asked = calls.lists.find((query) => query.get('filter')?.includes('deviceId'));
    expect(JSON.parse(asked?.get('filter') ?? '{}')).toEqual({ deviceId: [DEVICE] });
    expect(JSON.parse(asked?.get('sort') ?? '[]')).toEqual(['raisedAt', 'DESC']);
    expect(screen.getByText('第 1-10 条，共 12 条')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '转到下一页' }));
    await waitFor(() => expect(alarmRow(2)).toBeTruthy(), wait);
    expect(alarmRow(12)).toBeNull();
  });

  it("opens an alarm's history, and acknowledges an unacknowledged one", async () => {
    const calls = answerAlarms();
    await renderConsole(`/devices/${encodeURIComponent(DEVICE)}/show`);
    await waitFor(() => expect(alarmRow(12)).toBeTruthy(), wait);
    // Only the alarm waiting for acknowledgement offers it.
    expect(within(alarmRow(11)).queryByRole('button', { name: '确认' })).toBeNull();

    fireEvent.click(alarmRow(12));
    const history = await screen.findByRole('list', { name: '报警 12 的经过' }, wait);
    expect(within(history).getByText('产生 → 报警中，未确认')).toBeTruthy();
    expect(within(history).getByText(/系统/)).toBeTruthy();

    fireEvent.click(within(alarmRow(12)).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(calls.acks).toEqual(['12']), wait);
    await waitFor(() => expect(within(alarmRow(12)).getByText('报警中，已确认')).toBeTruthy(), wait);
    expect(within(alarmRow(12)).queryByRole('button', { name: '确认' })).toBeNull();
    // The tab's open alarms took the answer at once: the header's chip is no longer filled (acknowledged).
    await waitFor(() => expect(header().querySelector('[data-alarm-chip]')?.getAttribute('title')).toContain('已确认'), wait);
  });
});
