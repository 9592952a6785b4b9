import type { Kysely } from 'kysely';
import { alarmRulesConfig } from '../../src/resources/alarm-rules/config';
import { alarmsConfig } from '../../src/resources/alarms/config';
import type { DB } from '../db/schema';
import { renderList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import { deviceScope, type Viewer } from '../scope/service';

/** Alarms under their wire names (src/domain/alarms/record.ts) ↔ the alarms table. */
const alarmListing = defineListing(alarmsConfig, {
  id: column('a.id', 'number'),
  deviceId: column('a.device_id', 'text'),
  kind: column('a.kind', 'text'),
  priority: column('a.priority', 'text'),
  state: column('a.state', 'text'),
  value: column('a.value', 'number', true),
  threshold: column('a.threshold', 'number', true),
  raisedAt: column('a.raised_at', 'number'),
  ackedAt: column('a.acked_at', 'number', true),
  ackedBy: column('a.acked_by', 'text', true),
  closedAt: column('a.closed_at', 'number', true),
  shelvedUntil: column('a.shelved_until', 'number', true),
  comment: column('a.comment', 'text', true),
});

/** The alarms a viewer reads: those of the devices it sees, like every record of a device (docs/alarms.md, "Rights"). */
export const alarmScope = (db: Kysely<DB>, viewer: Viewer) => {
  const base = db.selectFrom('alarms as a');
  const devices = deviceScope(db, viewer);
  return devices === undefined ? base : base.where('a.device_id', 'in', devices);
};

/** `GET /api/v1/alarms` and `/:id`: filters by priority, state, device, kind and time (raisedAt), sorted, paged. */
export const alarmsResource: ServedResource = {
  config: alarmsConfig,
  listing: alarmListing,
  list: (ctx, viewer, body) => renderList(viewerSource(ctx.db, viewer, alarmScope), alarmListing(), body),
};

const ruleListing = defineListing(alarmRulesConfig, {
  id: column('r.id', 'number'),
  deviceType: column('r.device_type', 'number'),
  kind: column('r.kind', 'text'),
  priority: column('r.priority', 'text'),
  above: column('r.above', 'number', true),
  below: column('r.below', 'number', true),
  highAbove: column('r.high_above', 'number', true),
  highBelow: column('r.high_below', 'number', true),
  atLimit: column('r.at_limit', 'flag'),
  onDelayS: column('r.on_delay_s', 'number'),
  offDelayS: column('r.off_delay_s', 'number'),
  deadband: column('r.deadband', 'number'),
  enabled: column('r.enabled', 'flag'),
  updatedAt: column('r.updated_at', 'number'),
});

/** The rules are the same for every reader (they name no device). */
const everyRule = (db: Kysely<DB>) => db.selectFrom('alarm_rules as r');

/** `GET /api/v1/alarm-rules` and `/:id`: every device type's rules. */
export const alarmRulesResource: ServedResource = {
  config: alarmRulesConfig,
  listing: ruleListing,
  list: (ctx, viewer, body) => renderList(viewerSource(ctx.db, viewer, everyRule), ruleListing(), body),
};
