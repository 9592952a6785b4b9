import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { ResourceContextProvider } from 'react-admin';
import { createMockServer } from '../../../mocks/node';
import { canAccess } from '../../../src/domain/policy';
import { createDataProvider } from '../../../src/providers/dataProvider';
import { RESOURCE_CONFIGS } from '../../../src/resources/configs';
import { OrderManager } from '../../../src/resources/orders/OrderManager';
import { bodyRows, wait } from '../resources/dom';
import { mockSession, REST, UPSTREAM } from '../resources/fixtures';
import { renderConsole } from '../resources/renderConsole';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const MINUTE = 60_000;
/** Buttons by their text, read from the DOM: role queries over a whole list page take seconds each in jsdom. */
const buttons = (text: string) => [...document.querySelectorAll('button')].filter((button) => button.textContent?.trim() === text);

const provider = async (account = 'admin', locale = 'en-US') => {
  const { http, tokens } = await mockSession(account, locale);
  return createDataProvider({ http, tokens, restBase: REST, resources: RESOURCE_CONFIGS });
};

const managerRoute = (
  <Route
    path="/other/order-manager"
    element={
      <ResourceContextProvider value="orders">
        <OrderManager />
      </ResourceContextProvider>
    }
  />
);

describe('booking through the data provider against the mocks (the server’s rules)', () => {
  it('books a chamber, refuses an overlapping booking naming the other one and SetT, cancels only an unused booking', async () => {
    const dataProvider = await provider();
    const SetT = Date.now() + 60 * MINUTE;
    const booked = await dataProvider.bookChamber({ Id: 'Id-001', SetT, OpenId: 'oGuest-1' });
    expect(booked).toMatchObject({ Id: 'Id-001', SetT, OpenId: 'oGuest-1', IsUsed: false, CancelTime: null });
    expect(String(booked.OC)).toMatch(/^\d{6}$/);
    await expect(dataProvider.bookChamber({ Id: 'Id-001', SetT: SetT + 10 * MINUTE, OpenId: 'oGuest-2' })).rejects.toMatchObject({
      status: 400,
      message: `the booking time overlaps booking ${String(booked.OrderNum)} of device Id-001 (SetT)`,
    });
    await expect(dataProvider.bookChamber({ Id: 'Id-001', SetT: Date.now() - 60 * MINUTE, OpenId: 'oGuest-2' })).rejects.toMatchObject({
      message: 'the booking time has passed (SetT)',
    });
    const cancelled = await dataProvider.cancelBooking(booked.id as number);
    expect(cancelled.CancelTime).toEqual(expect.any(Number));
    await expect(dataProvider.cancelBooking(booked.id as number)).rejects.toMatchObject({ status: 400 });
    // Cancelled, it no longer holds its time.
    await expect(dataProvider.bookChamber({ Id: 'Id-001', SetT: SetT + 10 * MINUTE, OpenId: 'oGuest-2' })).resolves.toMatchObject({ Id: 'Id-001' });
  });

  it('refuses booking and cancelling to a client, as the policy says', async () => {
    const dataProvider = await provider('client');
    await expect(dataProvider.bookChamber({ Id: 'Id-001', SetT: Date.now() + 60 * MINUTE, OpenId: 'oGuest-1' })).rejects.toMatchObject({ status: 403 });
    await expect(dataProvider.cancelBooking(1)).rejects.toMatchObject({ status: 403 });
  });
});

describe('the order manager', () => {
  it('cancels an unused booking after a confirmation; used ones offer no cancel', async () => {
    await renderConsole('/other/order-manager', { routes: managerRoute });
    await screen.findByText(/^第 1-10 条，共 \d+ 条$/, {}, wait);
    expect(buttons('预约舱位')).toHaveLength(1);
    // Open bookings offer it; used, expired and cancelled ones (the seeded orders take each state in turn) do not.
    const cancels = () => buttons('取消预约');
    await waitFor(() => expect(cancels().length).toBeGreaterThan(0), wait);
    const offered = cancels().length;
    expect(offered).toBeLessThan(bodyRows().length);
    fireEvent.click(cancels()[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', {}, wait);
    expect(within(dialog).getByText(/^取消预约 /)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await screen.findByText(/^预约 .+ 已取消$/, {}, wait)).toBeTruthy();
    await waitFor(() => expect(cancels()).toHaveLength(offered - 1), wait);
  });

  it('offers neither booking nor cancelling to a client', async () => {
    await renderConsole('/other/order-manager', { routes: managerRoute, policy: (_role, request) => canAccess('client', request) });
    await screen.findByText(/^第 1-10 条，共 \d+ 条$/, {}, wait);
    await screen.findByRole('button', { name: '导出' }, wait);
    expect(buttons('预约舱位')).toHaveLength(0);
    expect(buttons('取消预约')).toHaveLength(0);
  });
});

describe('an order’s session report', () => {
  it('shows the booking, its state, the settings in force and the session’s charts, in English too', async () => {
    // The second seeded order is in session; its mocked chamber has reported since the booking time.
    await renderConsole('/orders/2/show', { locale: 'en-US' });
    const report = await screen.findByTestId('session-report', {}, wait);
    expect(within(report).getByTestId('order-state').textContent).toBe('in session');
    expect(within(report).getByText('Settings in force')).toBeTruthy();
    expect(within(report).getByText('Cabin pressure and set point')).toBeTruthy();
    expect(within(report).getByText('No commands were sent during the session.')).toBeTruthy();
    expect(within(report).getByRole('button', { name: 'Export readings as CSV' })).toBeTruthy();
  });

  it('says a booking never used has no session', async () => {
    await renderConsole('/orders/1/show');
    const report = await screen.findByTestId('session-report', {}, wait);
    expect(within(report).getByTestId('order-state').textContent).toBe('待使用');
    expect(within(report).getByText('该预约尚未使用，还没有疗程。')).toBeTruthy();
  });
});
