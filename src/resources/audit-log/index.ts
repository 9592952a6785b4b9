import HistoryIcon from '@mui/icons-material/History';
import { generateResource } from '../generate/resource';
import { lazyView } from '../../loading/lazyView';
import { AUDIT_LOG_CONFIG } from '../configs';

export const auditLog = generateResource(AUDIT_LOG_CONFIG, { icon: HistoryIcon, overrides: { show: lazyView(() => import('./AuditEntryShow').then((module) => module.AuditEntryShow)) } });
