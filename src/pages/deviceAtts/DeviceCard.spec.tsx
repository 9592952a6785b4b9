import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { AdminContext, ResourceContextProvider, testDataProvider } from 'react-admin';
import type { FleetDevice } from '../monitorDashboard/fleetLayout';
import { DeviceCard } from './DeviceCard';

const commandRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../resources/devices/DeviceCommands', () => ({
  DeviceCommands: () => {
    commandRenders.count += 1;
    return null;
  },
}));

const device = { id: 'OC-1', Id: 'OC-1', name: 'One', Location: 'Hall A', Type: 1, State: 'Work', Online: true, Permission: 'Open', Emergency: false } as unknown as FleetDevice;
const withReading = (record: FleetDevice, Time: number, RCPi02: number): FleetDevice => ({ ...record, LastSeen: Time, Reading: { Id: record.Id, Time, RCP: 1.3, RCPi02 } }) as FleetDevice;

const card = (record: FleetDevice) => (
  <AdminContext dataProvider={testDataProvider({ getList: () => Promise.resolve({ data: [], total: 0 }) as never })}>
    <ResourceContextProvider value="devices">
      <DeviceCard record={record} typeName="Single" />
    </ResourceContextProvider>
  </AdminContext>
);

describe('a device status card', () => {
  it('paints each reading without rendering its commands again; a change of state renders them', () => {
    const view = render(card(withReading(device, 1000, 21.5)));
    const rendered = commandRenders.count;
    expect(rendered).toBeGreaterThan(0);
    view.rerender(card(withReading(device, 2000, 23.4)));
    expect(screen.getByText(/23\.4/)).toBeTruthy();
    expect(document.querySelector('[data-field="Type"]')?.textContent).toContain('Single');
    expect(document.querySelector('[data-device="OC-1"]')?.getAttribute('data-reading-time')).toBe('2000');
    expect(commandRenders.count).toBe(rendered);
    view.rerender(card({ ...withReading(device, 3000, 23.4), Permission: 'Close' } as FleetDevice));
    expect(commandRenders.count).toBeGreaterThan(rendered);
  });
});
