import DevicesIcon from '@mui/icons-material/Devices';
import { generateResource } from '../generate/resource';
import { devicesConfig } from './config';
import { DeviceCommands } from './DeviceCommands';

export const devices = generateResource(devicesConfig, { icon: DevicesIcon, rowActions: DeviceCommands });
