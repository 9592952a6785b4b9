import HistoryIcon from '@mui/icons-material/History';
import { generateResource } from '../generate/resource';
import { AuditEntryShow } from './AuditEntryShow';
import { auditLogConfig } from './config';

export const auditLog = generateResource(auditLogConfig, { icon: HistoryIcon, overrides: { show: AuditEntryShow } });
