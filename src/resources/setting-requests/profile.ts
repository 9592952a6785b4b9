import type { Settings } from '../devices/requests';
import type { SettingRequestRecord } from './requests';

/**
 * The old console's basic profile calls, relative to the upstream's base (API_PREFIX), in its template's
 * shape (docs/approval.md, "The old calls"): answered by the server from a real settings request and by the mocks.
 */
export const PROFILE_CALLS = { basic: '/api/profile/basic', operationLog: '/api/operation/log' } as const;

/**
 * `api/profile/basic`: the template's `status` (its steps' current one: 2 while the request waits for
 * approval, 3 once it is decided or cancelled), the request, the settings requested (`current`) and those
 * in force before (`origin`), as the template's current and origin parameter groups.
 */
export interface ProfileBasic {
  status: 2 | 3;
  request: SettingRequestRecord;
  current: Partial<Settings>;
  origin: SettingRequestRecord['before'];
}

/** `api/operation/log`: one row per audit entry of the request, in the template's shape, plus the instant, action and actor. */
export interface OperationLogRow {
  key: string;
  contentNumber: string;
  updateContent: string;
  /** The template's: 0 waiting, 1 done. */
  status: 0 | 1;
  /** `yyyy-MM-dd HH:mm:ss`, UTC. */
  updateTime: string;
  at: number;
  action: string;
  actor: string;
}

export const profileStep = (request: Pick<SettingRequestRecord, 'status'>): 2 | 3 => (request.status === 'waiting' ? 2 : 3);
