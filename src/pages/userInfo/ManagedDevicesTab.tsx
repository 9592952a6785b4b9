import { devicesConfig } from '../../resources/devices/config';
import { ScopedList } from './ScopedList';

/** The project tab: the devices the account manages (the server scopes the device list to them). */
export const ManagedDevicesTab = () => <ScopedList config={devicesConfig} sources={['Id', 'name', 'Location', 'Type', 'State', 'Online']} />;
