import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setupServer } from 'msw/node';
import { BrowserRouter } from 'react-router-dom';
import { handlers } from '../../mocks/handlers';
import { settleSeededOrders } from '../../mocks/orders';
import { MOCK_EPOCH, seedTables } from '../../mocks/seed';
import { STANDING_ALARM_STATES } from '../../src/domain/alarms/open';
import type { AlarmState } from '../../src/domain/alarms/rules';
import { localDay } from '../../src/domain/fleetSummary';
import { App } from '../../src/App';
import { RESOURCE_CONFIGS } from '../../src/resources/configs';
import { signIn } from './console';
import { loadLazyViews } from './lazyViews';
import { wait } from './resources/dom';

/** The workplace in the console, in jsdom against the msw mocks (whose fleet stands at MOCK_EPOCH, unscoped). */
const upstreamBase = 'http://console.test/upstream';
const restBase = 'http://console.test/api/v1';

const server = setupServer();
const deviceListBodies: unknown[] = [];
server.events.on('request:start', ({ request }) => {
  if (request.url.endsWith('/list/get_OCProperty')) void request.clone().json().then((body) => deviceListBodies.push(body));
});
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeAll(loadLazyViews, 60_000);
afterEach(() => {
  server.resetHandlers();
  localStorage.clear();
  deviceListBodies.length = 0;
});
afterAll(() => server.close());

const openWorkplace = async (account = 'admin', password = 'Admin2026') => {
  server.use(...handlers(upstreamBase, restBase));
  window.history.replaceState(null, '', '/dashboard/workplace');
  render(
    <BrowserRouter>
      <App config={{ upstreamBase, restBase }} />
    </BrowserRouter>,
  );
  await signIn(account, password);
};

const figure = (name: string) => screen.getByTestId(`figure-${name}-value`).textContent;

describe('the workplace', () => {
  const tables = seedTables(RESOURCE_CONFIGS);
  const devices = tables.get('devices') ?? [];
  const orders = tables.get('orders') ?? [];
  const alarms = tables.get('alarms') ?? [];
  // The orders as the mocks hold them: the seeded ones settled into every state of a booking.
  settleSeededOrders(orders);
  const day = localDay(MOCK_EPOCH, new Date().getTimezoneOffset());
  const today = orders.filter((order) => typeof order.SetT === 'number' && order.SetT >= day.from && order.SetT <= day.to);

  it("shows the fleet's figures now and today, the utilisation chart and the account's chambers", async () => {
    await openWorkplace();
    await waitFor(() => expect(figure('online')).toBe(String(devices.filter((device) => device.Online === true).length)), wait);
    expect(figure('offline')).toBe(String(devices.filter((device) => device.Online !== true).length));
    expect(figure('repair')).toBe(String(devices.filter((device) => device.State === 'Repair').length));
    expect(figure('inSession')).toBe(String(devices.filter((device) => device.State !== 'Repair' && device.InSession === true).length));
    expect(figure('idle')).toBe(String(devices.filter((device) => device.State !== 'Repair' && device.InSession !== true).length));
    expect(today.length).toBeGreaterThan(0);
    expect(figure('bookings')).toBe(String(today.length));
    expect(figure('used')).toBe(String(today.filter((order) => order.IsUsed === true).length));
    expect(figure('expired')).toBe(String(today.filter((order) => order.IsPass === true).length));
    expect(screen.getByText(`舱体现状（共 ${devices.length} 台）`)).toBeTruthy();
    expect(screen.getByText('今日利用率')).toBeTruthy();
    expect(figure('sessions')).toBe(String(orders.filter((order) => typeof order.UseTime === 'number' && order.UseTime >= day.from && order.UseTime <= day.to).length));
    for (const priority of ['high', 'medium', 'low']) {
      const standing = alarms.filter((alarm) => alarm.priority === priority && STANDING_ALARM_STATES.includes(alarm.state as AlarmState));
      expect([priority, figure(`alarms-${priority}`)]).toEqual([priority, String(standing.length)]);
    }
    await waitFor(() => expect(screen.getByTestId('chamber-Id-001').getAttribute('href')).toBe('/devices/Id-001/show'), wait);
  });

  it('gives a client the session starts as a link to its order list, like every role that may list orders', async () => {
    await openWorkplace('client', 'Client2026');
    await waitFor(() => expect(figure('sessions')).not.toBeNull(), wait);
    const sessions = new URL(screen.getByTestId('figure-sessions-link').getAttribute('href') ?? '', 'http://console.test');
    expect([sessions.pathname, JSON.parse(sessions.searchParams.get('filter') ?? '{}')]).toEqual(['/other/order-list', { UseTime_gte: day.from, UseTime_lte: day.to }]);
    expect(screen.getByTestId('figure-alarms-high-link')).toBeTruthy();
  });

  it('opens the device manager filtered to what a figure counts', async () => {
    await openWorkplace();
    await waitFor(() => expect(figure('online')).not.toBeNull(), wait);
    fireEvent.click(screen.getByTestId('figure-online-link'));
    await waitFor(() => expect(window.location.pathname).toBe('/list/device-manager'), wait);
    expect(JSON.parse(new URLSearchParams(window.location.search).get('filter') ?? '{}')).toEqual({ Online: true });
    await waitFor(() => expect(deviceListBodies).toContainEqual(expect.objectContaining({ filter: { Online: true } })), wait);
  });

  it("opens the order list filtered to today's used bookings", async () => {
    await openWorkplace();
    await waitFor(() => expect(figure('used')).not.toBeNull(), wait);
    fireEvent.click(screen.getByTestId('figure-used-link'));
    await waitFor(() => expect(window.location.pathname).toBe('/other/order-list'), wait);
    expect(JSON.parse(new URLSearchParams(window.location.search).get('filter') ?? '{}')).toEqual({ SetT_gte: day.from, SetT_lte: day.to, IsUsed: true });
  });
});
