import DevicesIcon from '@mui/icons-material/Devices';
import { generateResource } from '../generate/resource';
import { devicesConfig } from './config';
import { lazyView } from '../../loading/lazyView';

const DeviceDetail = lazyView(() => import('./detail/DeviceDetail').then((module) => module.DeviceDetail));

export const devices = generateResource(devicesConfig, {
  icon: DevicesIcon,
  rowActions: lazyView(() => import('./DeviceCommands').then((module) => module.DeviceCommands)),
  overrides: { show: DeviceDetail },
  created: lazyView(() => import('./SecretDialog').then((module) => module.DeviceRegistered)),
});
