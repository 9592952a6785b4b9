import HistoryIcon from '@mui/icons-material/History';
import { generateResource } from '../generate/resource';
import { lazyView } from '../../loading/lazyView';
import { auditLogConfig } from './config';

export const auditLog = generateResource(auditLogConfig, { icon: HistoryIcon, overrides: { show: lazyView(() => import('./AuditEntryShow').then((module) => module.AuditEntryShow)) } });
