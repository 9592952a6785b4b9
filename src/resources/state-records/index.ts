import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import { lazyView } from '../../loading/lazyView';
import { generateResource } from '../generate/resource';
import { stateRecordsConfig } from './config';

export const stateRecords = generateResource(stateRecordsConfig, {
  icon: MonitorHeartIcon,
  overrides: { list: lazyView(() => import('./ReadingsLog').then((module) => module.ReadingsLog)) },
});
