import type { Kysely } from 'kysely';
import type { AuditAction, AuditTargetType, DerivedWriteAudit } from '../../src/domain/audit';
import type { DB } from '../db/schema';
import { appendAuditEntry } from './chain';

/**
 * Records changes in the audit trail. Call it with the same transaction as the change itself, so an
 * entry exists exactly when the change does.
 */

/** Who acted and from where: a signed-in account and its address, or the server itself. */
export interface AuditActor {
  id: number | null;
  account: string;
  address: string;
}

/** The server acting on its own (order expiry, device sessions over MQTT). */
export const SYSTEM_ACTOR: AuditActor = { id: null, account: 'system', address: 'system' };

interface Change {
  targetId: string | number;
  /** The device the change concerns; it decides who may read the entry. */
  deviceId?: string | null;
  /** The state before and after, as plain JSON; undefined when there was none (a creation, a deletion). */
  before?: unknown;
  after?: unknown;
}

/** A change named from the audit vocabulary (src/domain/audit.ts), or a derived write named by writeAudit. */
export type AuditChange = Change & ({ action: AuditAction; targetType: AuditTargetType } | DerivedWriteAudit);

/** Secrets never reach the trail, whatever a caller passes as before/after. */
const SECRET_KEYS = new Set(['Code', 'OldCode', 'NewCode', 'password', 'secret', 'token', 'password_hash', 'secret_hash']);

const asJson = (value: unknown): string | null =>
  value === undefined ? null : JSON.stringify(value, (key, inner: unknown) => (SECRET_KEYS.has(key) ? '[redacted]' : inner));

/** Appends the entry at the head of the hash chain (chain.ts), in `db`'s transaction when it is one. */
export const recordAudit = (db: Kysely<DB>, actor: AuditActor, change: AuditChange, at: number): Promise<void> =>
  appendAuditEntry(db, {
    at,
    actor_id: actor.id,
    actor_account: actor.account.slice(0, 64),
    action: change.action,
    target_type: change.targetType,
    target_id: String(change.targetId).slice(0, 128),
    device_id: change.deviceId ?? null,
    address: actor.address.slice(0, 64),
    before: asJson(change.before),
    after: asJson(change.after),
  });
