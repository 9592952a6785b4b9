import FactCheckIcon from '@mui/icons-material/FactCheck';
import { lazyView } from '../../loading/lazyView';
import { generateResource } from '../generate/resource';
import { settingRequestsConfig } from './config';

export const settingRequests = generateResource(settingRequestsConfig, {
  icon: FactCheckIcon,
  overrides: { show: lazyView(() => import('./ApprovalShow').then((module) => module.ApprovalShow)) },
});
