import type { Locale } from '../../domain/locales';
import { AUDIT_LOG_CONFIG } from '../configs';

/**
 * An audit entry as the old console's latest activity lists it (src/domain/userCenter.ts): its action and
 * target type in the reader's language, from the audit log's own labels, so the server and the mocks say
 * what the audit log says.
 */
export const activityOf = (entry: { id: number; action: string; targetType: string; targetId: string }, locale: Locale) => {
  const { action, targetType } = AUDIT_LOG_CONFIG.labels[locale].choices;
  return {
    id: entry.id,
    title: action?.[entry.action] ?? entry.action,
    description: `${targetType?.[entry.targetType] ?? entry.targetType} ${entry.targetId}`,
    avatar: '',
  };
};
