import type { Kysely } from 'kysely';
import type { ListBody } from '../../src/resources/query';
import { stateRecordsConfig } from '../../src/resources/state-records/config';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { renderList, type RenderedList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import { deviceScope, type Viewer } from '../scope/service';

/** State records under the old console's wire names (RCPi02, RGPi02, HmSP02 with a zero) ↔ state_records. */
export const stateRecordListing = defineListing(stateRecordsConfig, {
  Id: column('r.device_id', 'text'),
  Time: column('r.time', 'number'),
  L: column('r.l', 'number', true),
  SP: column('r.sp', 'number', true),
  ST: column('r.st', 'number', true),
  SS: column('r.ss', 'text', true),
  SL: column('r.sl', 'number', true),
  SA: column('r.sa', 'number', true),
  RCP: column('r.rcp', 'number', true),
  RRD: column('r.rrd', 'number', true),
  RCPi02: column('r.rcpi02', 'number', true),
  RGPi02: column('r.rgpi02', 'number', true),
  RCT: column('r.rct', 'number', true),
  RCRH: column('r.rcrh', 'number', true),
  RAP: column('r.rap', 'number', true),
  HmHR: column('r.hm_hr', 'number', true),
  HmSP02: column('r.hm_sp02', 'number', true),
  HmBP: column('r.hm_bp', 'text', true),
});

/** The rows the viewer sees, before filters (compiled once per level: ../lists/compiled.ts, viewerSource). */
const visible = (db: Kysely<DB>, viewer: Viewer) => {
  const scope = deviceScope(db, viewer);
  const base = db.selectFrom('state_records as r');
  return scope === undefined ? base : base.where('r.device_id', 'in', scope);
};

/** `list/get_OCState`: the readings of the devices the viewer sees. */
export const listStateRecords = (ctx: Pick<AppContext, 'db'>, viewer: Viewer, body: ListBody): Promise<RenderedList> =>
  renderList(viewerSource(ctx.db, viewer, visible), stateRecordListing(), body);

export const stateRecordsResource: ServedResource = { config: stateRecordsConfig, listing: stateRecordListing, list: listStateRecords };
