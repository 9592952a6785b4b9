import type { Kysely } from 'kysely';
import { levelToRole } from '../../src/domain/roles';
import type { WireRecord } from '../../src/resources/model';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import { AUDIT_LOG_CONFIG as auditLogConfig } from '../../src/resources/configs';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { asRecords, renderList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import { deviceScope, seesEverything, subtreeQuery, type Viewer } from '../scope/service';

/** Audit entries under their wire names (src/resources/audit-log/config.ts with the derived writes of src/resources/configs.ts, AuditEntry) ↔ the audit_log table. */
export const auditListing = defineListing(auditLogConfig, {
  id: column('a.id', 'number'),
  at: column('a.at', 'number'),
  actor: column('a.actor_account', 'text'),
  action: column('a.action', 'text'),
  targetType: column('a.target_type', 'text'),
  targetId: column('a.target_id', 'text'),
  deviceId: column('a.device_id', 'text', true),
  address: column('a.address', 'text'),
});

/**
 * The entries the viewer may read (docs/product.md: "read the audit log: admin all / user subtree / lowUser
 * subtree / client own", and audit entries are visible only when their device is), as a query over
 * `audit_log as a`:
 * - the super administrator: every entry, the server's own (actor 'system') included;
 * - an administrator (user, lowUser): entries whose actor is in its subtree (itself and every account
 *   below it), and whose device is none or one it sees;
 * - a client: its own entries, with the same device rule.
 * Entries of the server itself and of accounts outside the subtree (an upper administrator's) are the
 * super administrator's alone.
 */
export const auditScope = (db: Kysely<DB>, viewer: Viewer) => {
  const base = db.selectFrom('audit_log as a');
  if (seesEverything(viewer)) return base;
  const devices = deviceScope(db, viewer);
  const byActor =
    levelToRole(viewer.level) === 'client' ? base.where('a.actor_id', '=', viewer.id) : base.where('a.actor_id', 'in', subtreeQuery(db, viewer.id));
  return devices === undefined
    ? byActor
    : byActor.where((eb) => eb.or([eb('a.device_id', 'is', null), eb('a.device_id', 'in', devices)]));
};

/** The stored JSON of before/after as a value; text that is not JSON (never written so) is kept as text. */
const parsed = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * `GET /api/v1/audit-log`: a page of the entries the viewer may read, as `AuditEntry` (src/domain/audit.ts),
 * with the list meaning of server/lists/ (filter, sort, paging). `before` and `after` are free JSON, not
 * configured fields, so they are read for the page's ids in a second query and parsed.
 */
const listAudit = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, body: ListBody): Promise<ListAnswer> => {
  const answer = asRecords(await renderList(viewerSource(ctx.db, viewer, auditScope), auditListing(), body));
  const ids = answer.list.map((record) => Number(record.id));
  if (ids.length === 0) return answer;
  const changes = await ctx.db.selectFrom('audit_log').select(['id', 'before', 'after']).where('id', 'in', ids).execute();
  const byId = new Map(changes.map((row) => [Number(row.id), row]));
  const list: WireRecord[] = answer.list.map((record) => {
    const change = byId.get(Number(record.id));
    return { ...record, before: parsed(change?.before ?? null), after: parsed(change?.after ?? null) };
  });
  return { list, total: answer.total };
};

export const auditLogResource: ServedResource = { config: auditLogConfig, listing: auditListing, list: listAudit };
