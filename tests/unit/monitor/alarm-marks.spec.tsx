import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { Table, TableBody } from '@mui/material';
import { AdminContext, ListContextProvider, useList } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { alarmsByDevice, isStanding } from '../../../src/domain/alarms/open';
import type { AlarmRecord } from '../../../src/domain/alarms/record';
import { LOCALES, type Locale } from '../../../src/domain/locales';
import { chinese } from '../../../src/i18n';
import { english } from '../../../src/i18n/en-US';
import { applyAlarmEvent, OPEN_ALARMS_KEY } from '../../../src/providers/alarms';
import type { FleetDevice } from '../../../src/pages/monitorDashboard/fleetLayout';
import { FleetStore } from '../../../src/pages/monitorDashboard/fleetStore';
import { MonitorTile } from '../../../src/pages/monitorDashboard/MonitorTile';
import { MonitorRow, type MonitoredDevice } from '../../../src/pages/OxygenMonitor/MonitorRow';
import { MonitorTable } from '../../../src/pages/OxygenMonitor/MonitorTable';
import { alarmRecord } from '../../fixtures/alarms';

/** The marks of standing alarms on the oxygen monitor's rows and the real-time monitor's tiles. */

afterEach(() => {
  vi.useRealTimers();
});

const i18nProvider = (locale: Locale) => polyglotI18nProvider((l) => (l === 'en-US' ? english : chinese), locale, [...LOCALES]);

const T0 = Date.UTC(2026, 10, 26, 9);

const alarm = (id: number, deviceId: string, more: Partial<AlarmRecord> = {}): AlarmRecord => alarmRecord(id, { deviceId, raisedAt: T0, ...more });

const DEVICE: MonitoredDevice = {
  id: 'OC-1',
  Id: 'OC-1',
  name: 'North One',
  Type: 1,
  Location: 'Hall A',
  State: 'Work',
  Online: true,
  SessionOC: null,
  Reading: { Time: T0, SP: 1.3, RCP: 1.31, RCPi02: 23.6 },
};

const row = (id: string) => document.querySelector(`tr[data-device="${id}"]`) as HTMLElement;
const alarmsCell = (id: string) => row(id).querySelector('td[data-column="alarms"]') as HTMLElement;

describe("an oxygen monitor row's alarms", () => {
  const renderRow = (alarms: readonly AlarmRecord[], locale: Locale = 'en-US') =>
    render(
      <AdminContext i18nProvider={i18nProvider(locale)}>
        <Table>
          <TableBody>
            <MonitorRow record={DEVICE} deviceType={undefined} alarms={alarms} selected={false} onToggle={() => undefined} onOpen={() => undefined} />
          </TableBody>
        </Table>
      </AdminContext>,
    );

  it('shows the most urgent as a chip with its icon, kind and priority in words, "+N" for the others, and marks the row', () => {
    renderRow([alarm(1, 'OC-1'), alarm(2, 'OC-1', { kind: 'temperature', priority: 'medium', value: 27 })]);
    const chip = alarmsCell('OC-1').querySelector('[data-alarm-chip]') as HTMLElement;
    expect(chip.getAttribute('data-alarm-chip')).toBe('high');
    expect(chip.textContent).toBe('cabin oxygen high · High priority');
    expect(within(chip).getByTestId('ErrorOutlineIcon')).toBeTruthy();
    expect(chip.getAttribute('title')).toBe('23.6 % · unacknowledged');
    expect(alarmsCell('OC-1').textContent).toBe('cabin oxygen high · High priority+1');
    expect(row('OC-1').getAttribute('data-alarm')).toBe('high');
  });

  it('marks a medium alarm in amber with its own icon, in Chinese too', () => {
    renderRow([alarm(2, 'OC-1', { kind: 'temperature', priority: 'medium', value: 27, state: 'active-acked' })], 'zh-CN');
    const chip = alarmsCell('OC-1').querySelector('[data-alarm-chip]') as HTMLElement;
    expect(chip.textContent).toBe('舱内温度 · 中优先级');
    expect(within(chip).getByTestId('WarningAmberIcon')).toBeTruthy();
    expect(chip.getAttribute('title')).toBe('27.0 °C · 已确认');
    expect(row('OC-1').getAttribute('data-alarm')).toBe('medium');
  });

  it('leaves a chamber without standing alarms unmarked', () => {
    renderRow([]);
    expect(alarmsCell('OC-1').textContent).toBe('');
    expect(row('OC-1').hasAttribute('data-alarm')).toBe(false);
  });
});

describe('the oxygen monitor table when alarms change', () => {
  it("renders again only the row of the chamber whose alarms changed", async () => {
    const translations: string[] = [];
    const base = i18nProvider('en-US');
    const counting = { ...base, translate: (key: string, options?: unknown) => (translations.push(key), base.translate(key, options)) };
    const queryClient = new QueryClient();
    queryClient.setQueryData(OPEN_ALARMS_KEY, [alarm(1, 'OC-1')]);
    const devices = ['OC-1', 'OC-2', 'OC-3'].map((Id): MonitoredDevice => ({ ...DEVICE, id: Id, Id }));
    const Over = () => (
      <ListContextProvider value={useList({ data: devices, perPage: 50 })}>
        <MonitorTable />
      </ListContextProvider>
    );
    render(
      <AdminContext i18nProvider={counting} queryClient={queryClient}>
        <Over />
      </AdminContext>,
    );
    await waitFor(() => expect(row('OC-1').getAttribute('data-alarm')).toBe('high'));
    // Each row translates its state once per render.
    const rowRenders = () => translations.filter((key) => key.startsWith('resources.devices.choices.State')).length;
    const before = rowRenders();
    act(() => applyAlarmEvent(queryClient, alarm(2, 'OC-2', { priority: 'medium', kind: 'humidity', value: 88 })));
    await waitFor(() => expect(row('OC-2').getAttribute('data-alarm')).toBe('medium'));
    expect(rowRenders() - before).toBe(1);
    expect(row('OC-1').getAttribute('data-alarm')).toBe('high');

    // Shelved: no longer standing, so no longer marked.
    act(() => applyAlarmEvent(queryClient, alarm(2, 'OC-2', { priority: 'medium', kind: 'humidity', value: 88, state: 'shelved' })));
    await waitFor(() => expect(row('OC-2').hasAttribute('data-alarm')).toBe(false));
  });
});

describe("a real-time monitor tile's alarm", () => {
  const CHAMBER: FleetDevice = { ...DEVICE, Location: 'Hall A' };

  it('says the kind, value, priority and time since raised, and colours and pulses the border while unacknowledged', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(T0 + 42_000);
    const store = new FleetStore();
    store.load([CHAMBER, { ...CHAMBER, id: 'OC-2', Id: 'OC-2' }]);
    store.setAlarms(alarmsByDevice([alarm(1, 'OC-1'), alarm(2, 'OC-1', { kind: 'humidity', priority: 'low', value: 88 })], undefined, isStanding));
    render(
      <AdminContext i18nProvider={i18nProvider('en-US')}>
        <MonitorTile id="OC-1" store={store} onOpen={() => undefined} />
        <MonitorTile id="OC-2" store={store} onOpen={() => undefined} />
      </AdminContext>,
    );
    const tile = document.querySelector('[data-device="OC-1"]') as HTMLElement;
    const line = tile.querySelector('[data-alarm-line]') as HTMLElement;
    expect(line.textContent).toBe('cabin oxygen high 23.6 % (high, 00:42) +1');
    expect(within(line).getByTestId('ErrorOutlineIcon')).toBeTruthy();
    expect(tile.getAttribute('data-alarm')).toBe('high');
    expect(tile.hasAttribute('data-unacked')).toBe(true);
    // The time since raised moves on its own.
    act(() => vi.advanceTimersByTime(20_000));
    expect(line.textContent).toBe('cabin oxygen high 23.6 % (high, 01:02) +1');
    // A chamber without alarms has no line and no alarm border.
    const other = document.querySelector('[data-device="OC-2"]') as HTMLElement;
    expect(other.querySelector('[data-alarm-line]')).toBeNull();
    expect(other.hasAttribute('data-alarm')).toBe(false);

    // Acknowledged: still marked, no longer pulsing.
    act(() => store.setAlarms(alarmsByDevice([alarm(1, 'OC-1', { state: 'active-acked' })], undefined, isStanding)));
    expect(tile.getAttribute('data-alarm')).toBe('high');
    expect(tile.hasAttribute('data-unacked')).toBe(false);
    expect(tile.querySelector('[data-alarm-line]')?.textContent).toBe('cabin oxygen high 23.6 % (high, 01:02)');
  });

  it('writes a lost-telemetry alarm without a value, in Chinese', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    vi.setSystemTime(T0 + 3_725_000);
    const store = new FleetStore();
    store.load([CHAMBER]);
    store.setAlarms(alarmsByDevice([alarm(1, 'OC-1', { kind: 'offline', priority: 'medium', value: null, threshold: null })]));
    render(
      <AdminContext i18nProvider={i18nProvider('zh-CN')}>
        <MonitorTile id="OC-1" store={store} onOpen={() => undefined} />
      </AdminContext>,
    );
    const tile = document.querySelector('[data-device="OC-1"]') as HTMLElement;
    expect(tile.querySelector('[data-alarm-line]')?.textContent).toBe('数据中断（中，1:02:05）');
    expect(tile.getAttribute('data-alarm')).toBe('medium');
  });
});
