import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { settingRequestsConfig } from '../../src/resources/setting-requests/config';
import { canonicalSettings, type SettingRequestRecord } from '../../src/resources/setting-requests/requests';
import type { Settings } from '../../src/resources/devices/requests';
import type { WireRecord } from '../../src/resources/model';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { asRecords, renderList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import { deviceScope, seesEverything, subtreeQuery, type Viewer } from '../scope/service';

/** What a signature binds: sha256 of the device and the settings in canonical order (docs/approval.md, "Signatures"). */
export const settingsHash = (deviceId: string, settings: Partial<Settings>): string =>
  createHash('sha256').update(JSON.stringify([deviceId, canonicalSettings(settings)])).digest('hex');

/** Requests under their wire names (src/resources/setting-requests/config.ts) ↔ setting_requests, with the command's outcome. */
const requestListing = defineListing(settingRequestsConfig, {
  id: column('r.id', 'number'),
  deviceId: column('r.device_id', 'text'),
  status: column('r.status', 'text'),
  requester: column('r.requester_account', 'text'),
  requestedAt: column('r.requested_at', 'number'),
  decidedBy: column('r.decider_account', 'text', true),
  decidedAt: column('r.decided_at', 'number', true),
  meaning: column('r.meaning', 'text', true),
  commandStatus: column('c.status', 'text', true),
});

/**
 * The requests a viewer reads (docs/approval.md, "Rights"): the super administrator every one; any other
 * administrator those made in its subtree (its own and those of the accounts below it) on a device it manages,
 * which are the ones it may decide, and its own.
 */
export const requestScope = (db: Kysely<DB>, viewer: Viewer) => {
  const base = db.selectFrom('setting_requests as r').leftJoin('device_commands as c', 'c.cmd_id', 'r.cmd_id');
  if (seesEverything(viewer)) return base;
  const devices = deviceScope(db, viewer);
  const bySubtree = base.where('r.requested_by', 'in', subtreeQuery(db, viewer.id));
  return devices === undefined ? bySubtree : bySubtree.where('r.device_id', 'in', devices);
};

const parsed = <T>(json: string): T => JSON.parse(json) as T;

/** The free JSON of the page's requests, and the command's error: read for their ids in a second query. */
const withDetails = async (db: Kysely<DB>, list: WireRecord[]): Promise<SettingRequestRecord[]> => {
  const ids = list.map((record) => Number(record.id));
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('setting_requests as r')
    .leftJoin('device_commands as c', 'c.cmd_id', 'r.cmd_id')
    .select(['r.id', 'r.device_id', 'r.settings', 'r.before', 'r.settings_hash', 'r.signed_hash', 'r.cmd_id', 'c.error'])
    .where('r.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return list.map((record) => {
    const row = byId.get(Number(record.id));
    if (row === undefined) throw new Error(`setting request ${String(record.id)} vanished while listed`);
    const settings = Object.fromEntries(parsed<[string, string | number][]>(row.settings)) as Partial<Settings>;
    const base = record as unknown as SettingRequestRecord;
    return {
      ...base,
      cmdId: row.cmd_id,
      commandError: row.error ?? null,
      settings,
      before: parsed(row.before),
      settingsHash: row.settings_hash,
      signature:
        row.signed_hash === null || base.decidedBy === null || base.decidedAt === null || base.meaning === null
          ? null
          : {
              signer: base.decidedBy,
              signedAt: base.decidedAt,
              meaning: base.meaning,
              settingsHash: row.signed_hash,
              // Recomputed from what is stored now: settings changed behind the server's back no longer carry the signature.
              valid: row.signed_hash === settingsHash(row.device_id, settings),
            },
    };
  });
};

/** `GET /api/v1/setting-requests`: a page of the requests the viewer reads, as SettingRequestRecord. */
export const listRequests = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, body: ListBody): Promise<ListAnswer> => {
  const answer = asRecords(await renderList(viewerSource(ctx.db, viewer, requestScope), requestListing(), body));
  return { list: (await withDetails(ctx.db, answer.list)) as unknown as WireRecord[], total: answer.total };
};

/** One request the viewer reads, or undefined (out of scope is missing). */
export const readRequest = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, id: number): Promise<SettingRequestRecord | undefined> => {
  const { list } = await listRequests(ctx, viewer, { current: 1, pageSize: 1, filter: { id: [id] } });
  return list[0] as unknown as SettingRequestRecord | undefined;
};

export const settingRequestsResource: ServedResource = { config: settingRequestsConfig, listing: requestListing, list: listRequests };
