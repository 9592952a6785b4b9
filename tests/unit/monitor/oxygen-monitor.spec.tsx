import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { Table, TableBody } from '@mui/material';
import { Route } from 'react-router-dom';
import { AdminContext, ListContextProvider, useList } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { createMockServer } from '../../../mocks/node';
import { DEFAULT_DEVICE_TYPES, type DeviceType } from '../../../src/domain/deviceTypes';
import { LOCALES, type Locale } from '../../../src/domain/locales';
import { chinese } from '../../../src/i18n';
import { english } from '../../../src/i18n/en-US';
import { OxygenMonitorPage } from '../../../src/pages/OxygenMonitor/OxygenMonitorPage';
import { MonitorRow, type MonitoredDevice } from '../../../src/pages/OxygenMonitor/MonitorRow';
import { MonitorTable } from '../../../src/pages/OxygenMonitor/MonitorTable';
import { column, table, wait } from '../resources/dom';
import { REST, UPSTREAM } from '../resources/fixtures';
import { renderConsole } from '../resources/renderConsole';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const cell = (deviceId: string, field: string) => document.querySelector(`tr[data-device="${deviceId}"] td[data-column="${field}"]`) as HTMLElement;

describe('the oxygen monitor against the mocks', () => {
  it('lists the chambers with their latest readings, units in the headers, values outside their range marked', async () => {
    await renderConsole('/list/oxygen-monitor', { routes: <Route path="/list/oxygen-monitor" element={<OxygenMonitorPage />} /> });
    expect(await screen.findByText('第 1-25 条，共 55 条', {}, wait)).toBeTruthy();
    const headers = within(table()).getAllByRole('columnheader').map((header) => header.textContent);
    expect(headers).toEqual(expect.arrayContaining(['舱压 / 设定 (ATA)', '舱内氧 (%)', '温度 (°C)', '湿度 (%RH)', '大气压 (kPa)', '血压 (mmHg)', '剩余 (分钟)']));
    expect(column('编号').slice(0, 4)).toEqual(['Id-001', 'Id-002', 'Id-003', 'Id-004']);

    // Id-004 is a strained chamber of the seed (mocks/readings.ts): O2 23.6 % is high, 92 % SpO2 medium.
    const oxygen = cell('Id-004', 'RCPi02');
    expect(oxygen.textContent).toBe('23.6');
    expect(oxygen.querySelector('[data-mark="high"]')).not.toBeNull();
    expect(within(oxygen).getByTestId('ErrorOutlineIcon')).toBeTruthy();
    expect(cell('Id-004', 'HmSP02').querySelector('[data-mark="medium"]')).not.toBeNull();
    expect(within(cell('Id-004', 'HmSP02')).getByTestId('WarningAmberIcon')).toBeTruthy();
    // A normal value carries neither mark nor icon.
    expect(cell('Id-001', 'RCPi02').querySelector('[data-mark], svg')).toBeNull();
    expect(cell('Id-001', 'RAP').textContent).toMatch(/^1\d\d\.\d$/);
    expect(getComputedStyle(cell('Id-001', 'Id')).whiteSpace).toBe('nowrap');
    // Types by name, as the device types resource names them.
    await waitFor(() => expect(DEFAULT_DEVICE_TYPES.map(({ name }) => name)).toContain(cell('Id-001', 'Type').textContent), wait);
  });
});

// Both catalogues already hold the resources' labels.
const i18nProvider = (locale: Locale) => polyglotI18nProvider((l) => (l === 'en-US' ? english : chinese), locale, [...LOCALES]);

const renderRow = (record: MonitoredDevice, deviceType?: DeviceType) =>
  render(
    <AdminContext i18nProvider={i18nProvider('en-US')}>
      <Table>
        <TableBody>
          <MonitorRow record={record} deviceType={deviceType} alarms={[]} selected={false} onToggle={() => undefined} onOpen={() => undefined} />
        </TableBody>
      </Table>
    </AdminContext>,
  );

const DEVICE: MonitoredDevice = {
  id: 'OC-1',
  Id: 'OC-1',
  name: 'North One',
  Type: 2,
  Location: 'Hall A',
  State: 'Work',
  Online: true,
  LastSeen: 1_767_600_000_000,
  Emergency: false,
  SessionOC: 'OC-7',
  Reading: { Time: 1_767_600_000_000, SP: 1.3, RCP: 1.52, RCPi02: 22.1, RCT: 24, RCRH: 60, RAP: 101.3, HmSP02: 88, HmHR: 72, HmBP: '118/76', RRD: 42 },
};

describe('a row of the oxygen monitor', () => {
  it('marks a value with colour, an icon and the threshold it crossed', () => {
    renderRow(DEVICE);
    const pressure = cell('OC-1', 'RCP');
    expect(pressure.textContent).toBe('1.52 / 1.30');
    const mark = pressure.querySelector('[data-mark="medium"]');
    expect(mark?.getAttribute('title')).toBe('Medium priority: > 1.40 ATA');
    expect(within(pressure).getByTestId('WarningAmberIcon')).toBeTruthy();
    expect(cell('OC-1', 'HmSP02').querySelector('[data-mark="high"]')?.getAttribute('title')).toBe('High priority: < 90 %');
    expect(cell('OC-1', 'RRD').textContent).toBe('42');
  });

  it("shows the type's name, and marks the pressure against the type's rated maximum", () => {
    renderRow({ ...DEVICE, Reading: { Time: 1_767_600_000_000, RCP: 1.52, SP: 1.5 } }, { id: 2, name: 'Hard single-seat', ratedMaxAta: 1.5, updatedAt: 0 });
    expect(cell('OC-1', 'Type').textContent).toBe('Hard single-seat');
    expect(cell('OC-1', 'RCP').querySelector('[data-mark="high"]')?.getAttribute('title')).toBe('High priority: > 1.50 ATA');
  });

  it('shows the vitals only while a session runs', () => {
    renderRow({ ...DEVICE, SessionOC: null });
    for (const vital of ['HmSP02', 'HmHR', 'HmBP']) {
      expect(cell('OC-1', vital).textContent).toBe('—');
      expect(cell('OC-1', vital).querySelector('[data-mark]')).toBeNull();
    }
    expect(cell('OC-1', 'RCPi02').textContent).toBe('22.1');
  });

  it('marks a chamber that went offline during a session, and emergency depressurisation', () => {
    renderRow({ ...DEVICE, Online: false, Emergency: true });
    expect(cell('OC-1', 'Online').textContent).toBe('offline in session');
    expect(cell('OC-1', 'Online').querySelector('[data-mark="high"]')).not.toBeNull();
    expect(cell('OC-1', 'Emergency').textContent).toBe('depressurising');
    expect(within(cell('OC-1', 'Emergency')).getByTestId('ErrorOutlineIcon')).toBeTruthy();
  });
});

type SetData = (data: MonitoredDevice[]) => void;

/** The table over data held in state, as react-admin's List holds its page: the setter handed to `onReady` replaces it, as a live patch does. */
const TableOver = ({ initial, onReady }: { initial: MonitoredDevice[]; onReady: (set: SetData) => void }) => {
  const [data, setData] = useState(initial);
  useEffect(() => onReady(setData), [onReady]);
  return (
    <ListContextProvider value={useList({ data, perPage: 50 })}>
      <MonitorTable />
    </ListContextProvider>
  );
};

describe('the oxygen monitor table under live patches', () => {
  it('renders again only the row whose record a patch replaced', async () => {
    const translations: string[] = [];
    const base = i18nProvider('en-US');
    const counting = { ...base, translate: (key: string, options?: unknown) => (translations.push(key), base.translate(key, options)) };
    const devices = ['OC-1', 'OC-2', 'OC-3'].map((Id): MonitoredDevice => ({ ...DEVICE, id: Id, Id }));
    let setData: SetData | undefined;
    render(
      <AdminContext i18nProvider={counting}>
        <TableOver initial={devices} onReady={(set) => (setData = set)} />
      </AdminContext>,
    );
    await waitFor(() => expect(document.querySelectorAll('tr[data-device]')).toHaveLength(3));
    // Each row translates its state once per render.
    const rowRenders = () => translations.filter((key) => key.startsWith('resources.devices.choices.State')).length;
    const before = rowRenders();
    const [first, second, third] = devices as [MonitoredDevice, MonitoredDevice, MonitoredDevice];
    const reading = { ...DEVICE.Reading, Time: 2, RCPi02: 23.7 };
    act(() => setData?.([first, { ...second, Reading: reading }, third]));
    await waitFor(() => expect(cell('OC-2', 'RCPi02').textContent).toBe('23.7'));
    expect(rowRenders() - before).toBe(1);
  });
});
