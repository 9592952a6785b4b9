import CampaignIcon from '@mui/icons-material/Campaign';
import { lazyView } from '../../loading/lazyView';
import { generateResource } from '../generate/resource';
import { notificationChannelsConfig } from './config';

export const notificationChannels = generateResource(notificationChannelsConfig, {
  icon: CampaignIcon,
  rowActions: lazyView(() => import('./SendTestAction').then((module) => module.SendTestAction)),
});
