import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import { generateResource } from '../generate/resource';
import { stateRecordsConfig } from './config';

export const stateRecords = generateResource(stateRecordsConfig, { icon: MonitorHeartIcon });
