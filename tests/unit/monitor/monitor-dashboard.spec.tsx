import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { AdminContext } from 'react-admin';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { createMockServer } from '../../../mocks/node';
import { seedTables } from '../../../mocks/seed';
import { LOCALES, type Locale } from '../../../src/domain/locales';
import { chinese } from '../../../src/i18n';
import { english } from '../../../src/i18n/en-US';
import { devicesConfig } from '../../../src/resources/devices/config';
import type { FleetDevice } from '../../../src/pages/monitorDashboard/fleetLayout';
import { FleetStore } from '../../../src/pages/monitorDashboard/fleetStore';
import { MonitorDashboardPage } from '../../../src/pages/monitorDashboard/MonitorDashboardPage';
import { MonitorTile } from '../../../src/pages/monitorDashboard/MonitorTile';
import { wait } from '../resources/dom';
import { REST, UPSTREAM } from '../resources/fixtures';
import { renderConsole } from '../resources/renderConsole';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

/** jsdom lays nothing out and has no ResizeObserver: the grid's container reports the size a browser window would give it. */
class SizedResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    const entry = { target, contentRect: { width: 1200, height: 800 }, borderBoxSize: [{ inlineSize: 1200, blockSize: 800 }] };
    this.callback([entry as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  unobserve() {}
  disconnect() {}
}

describe('the real-time monitor against the mocks', () => {
  it('loads the whole scope and narrows it with the filter chips', async () => {
    vi.stubGlobal('ResizeObserver', SizedResizeObserver);
    // The virtualiser reads the scroll container's own size.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(800);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    await renderConsole('/dashboard/monitor', { routes: <Route path="/dashboard/monitor" element={<MonitorDashboardPage />} /> });
    expect(await screen.findByText('显示 55 / 55 台', {}, wait)).toBeTruthy();
    expect(document.querySelectorAll('[data-device]').length).toBeGreaterThan(0);

    const repairing = (seedTables([devicesConfig]).get('devices') ?? []).filter((device) => device.State === 'Repair');
    fireEvent.click(within(document.querySelector('[data-filter="state"]') as HTMLElement).getByText('状态: 全部'));
    fireEvent.click(await screen.findByRole('menuitem', { name: '维修中' }));
    expect(await screen.findByText(`显示 ${repairing.length} / 55 台`, {}, wait)).toBeTruthy();
    const shown = [...document.querySelectorAll('[data-device]')];
    expect(shown.length).toBeGreaterThan(0);
    for (const tile of shown) expect(repairing.map((device) => device.Id)).toContain(tile.getAttribute('data-device'));
  });
});

const i18nProvider = (locale: Locale) => polyglotI18nProvider((l) => (l === 'en-US' ? english : chinese), locale, [...LOCALES]);

const CHAMBER: FleetDevice = {
  id: 'OC-1',
  Id: 'OC-1',
  name: 'North One',
  Location: 'Hall A',
  State: 'Work',
  Type: 1,
  Online: true,
  LastSeen: 1_767_600_000_000,
  SessionOC: 'OC-7',
  Reading: { Time: 1_767_600_000_000, SP: 1.3, ST: 60, RCP: 1.32, RCPi02: 22.1, RCT: 24.6, RCRH: 58, RAP: 101.3, HmSP02: 98, HmHR: 72, HmBP: '118/76', RRD: 17 },
};

describe('a tile of the real-time monitor', () => {
  it('shows the sketch: pressure against set point, O2, the occupant during a session, the air and the time left', () => {
    const store = new FleetStore();
    store.load([CHAMBER, { ...CHAMBER, id: 'OC-2', Id: 'OC-2', SessionOC: null }]);
    render(
      <AdminContext i18nProvider={i18nProvider('en-US')}>
        <MonitorTile id="OC-1" store={store} onOpen={() => undefined} />
        <MonitorTile id="OC-2" store={store} onOpen={() => undefined} />
      </AdminContext>,
    );
    const field = (id: string, name: string) => document.querySelector(`[data-device="${id}"] [data-field="${name}"]`)?.textContent;
    expect(field('OC-1', 'RCP')).toBe('1.32 / 1.30 ATA');
    expect(field('OC-1', 'RCPi02')).toBe('22.1 %');
    expect(field('OC-1', 'HmBP')).toBe('118/76');
    expect(field('OC-1', 'RRD')).toBe('17 min left');
    expect(field('OC-1', 'RAP')).toBe('101.3 kPa');
    // No session, no occupant: the vitals and the time left are not shown.
    expect(field('OC-2', 'HmSP02')).toBeUndefined();
    expect(field('OC-2', 'RRD')).toBeUndefined();
    expect(document.querySelector('[data-device="OC-1"] [data-look]')?.getAttribute('data-look')).toBe('Work');
  });

  it('renders again only the tile whose chamber a patch changed, and marks a high O2 with an icon', () => {
    const opened: string[] = [];
    const base = i18nProvider('en-US');
    const counting = { ...base, translate: (key: string, options?: unknown) => (opened.push(key), base.translate(key, options)) };
    const store = new FleetStore();
    store.load(['OC-1', 'OC-2', 'OC-3'].map((Id) => ({ ...CHAMBER, id: Id, Id })));
    render(
      <AdminContext i18nProvider={counting}>
        {['OC-1', 'OC-2', 'OC-3'].map((id) => (
          <MonitorTile key={id} id={id} store={store} onOpen={() => undefined} />
        ))}
      </AdminContext>,
    );
    // Each tile names itself once per render.
    const tileRenders = () => opened.filter((key) => key === 'app.tiles.open').length;
    const before = tileRenders();
    act(() => store.patch({ Id: 'OC-2', Reading: { ...CHAMBER.Reading, Id: 'OC-2', Time: 1_767_600_001_000, RCPi02: 23.7 } }));
    const oxygen = document.querySelector('[data-device="OC-2"] [data-field="RCPi02"]') as HTMLElement;
    expect(oxygen.textContent).toBe('23.7 %');
    expect(oxygen.querySelector('[data-mark="high"]')).not.toBeNull();
    expect(within(oxygen).getByTestId('ErrorOutlineIcon')).toBeTruthy();
    expect(tileRenders() - before).toBe(1);

    act(() => store.patch({ Id: 'OC-3', Emergency: true }));
    expect(document.querySelector('[data-device="OC-3"] [data-look]')?.getAttribute('data-look')).toBe('danger');
  });
});
