import NotificationImportantIcon from '@mui/icons-material/NotificationImportant';
import { lazyView } from '../../loading/lazyView';
import { generateResource } from '../generate/resource';
import { alarmsConfig } from './config';

export const alarms = generateResource(alarmsConfig, {
  icon: NotificationImportantIcon,
  rowActions: lazyView(() => import('./AlarmActions').then((module) => module.AlarmActions)),
  overrides: { show: lazyView(() => import('./AlarmShow').then((module) => module.AlarmShow)) },
});
