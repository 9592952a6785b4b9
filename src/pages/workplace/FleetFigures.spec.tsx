import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { CoreAdminContext, memoryStore } from 'react-admin';
import { MemoryRouter } from 'react-router-dom';
import { STANDING_ALARM_STATES } from '../../domain/alarms/open';
import type { FleetSummary } from '../../domain/fleetSummary';
import { ROLES, type Role } from '../../domain/roles';
import { chinese } from '../../i18n';
import { FleetFigures } from './FleetFigures';

const DAY = Date.UTC(2026, 0, 11, 16);

const SUMMARY: FleetSummary = {
  from: DAY,
  to: DAY + 86_400_000 - 1,
  at: DAY + 3_600_000,
  chambers: { total: 6, online: 4, offline: 2, inSession: 1, idle: 4, repair: 1 },
  orders: { bookings: 5, sessions: 3, used: 3, expired: 1 },
  alarms: { high: 2, medium: 0, low: 1 },
  utilisation: Array<null>(24).fill(null),
};

const renderFor = (role: Role) =>
  render(
    <MemoryRouter>
      <CoreAdminContext i18nProvider={polyglotI18nProvider(() => chinese, 'zh-CN')} store={memoryStore()}>
        <FleetFigures summary={SUMMARY} role={role} />
      </CoreAdminContext>
    </MemoryRouter>,
  );

/** A figure's link as path and filter (react-admin's `?filter={json}`). */
const linkOf = (name: string) => {
  const href = screen.getByTestId(`figure-${name}-link`).getAttribute('href') ?? '';
  const url = new URL(href, 'http://console.test');
  return [url.pathname, JSON.parse(url.searchParams.get('filter') ?? 'null') as unknown];
};

describe('the workplace figures', () => {
  it.each(ROLES)('open for %s the standing alarms of each priority, and the sessions started today in the order list', (role) => {
    renderFor(role);
    expect(screen.getByText('未处理的报警（报警中或待确认）')).toBeTruthy();
    expect(['high', 'medium', 'low'].map((priority) => screen.getByTestId(`figure-alarms-${priority}-value`).textContent)).toEqual(['2', '0', '1']);
    for (const priority of ['high', 'medium', 'low']) {
      expect(linkOf(`alarms-${priority}`)).toEqual(['/alarms', { priority, state: [...STANDING_ALARM_STATES] }]);
    }
    // Every role may list orders (src/domain/policy.ts), so every role opens the sessions it counts.
    expect(linkOf('sessions')).toEqual(['/other/order-list', { UseTime_gte: SUMMARY.from, UseTime_lte: SUMMARY.to }]);
  });

  it('marks a priority with standing alarms by its colour and icon, and leaves a zero plain', () => {
    renderFor('client');
    expect(screen.getByTestId('figure-alarms-high-value').querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('figure-alarms-low-value').querySelector('svg')).not.toBeNull();
    expect(screen.getByTestId('figure-alarms-medium-value').querySelector('svg')).toBeNull();
  });
});
