import type { Kysely } from 'kysely';
import { z } from 'zod';
import { CMD_ID_MAX, CMD_ID_PATTERN } from '../../src/domain/commands';
import type { WireRecord } from '../../src/resources/model';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import { deviceCommandsConfig } from '../../src/resources/devices/commandLog';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { asRecords, renderList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import { deviceScope, type Viewer } from '../scope/service';

/** Commands under their wire names (src/resources/devices/commandLog.ts, DeviceCommandRecord) ↔ device_commands. */
const commandListing = defineListing(deviceCommandsConfig, {
  id: column('c.cmd_id', 'text'),
  Id: column('c.device_id', 'text'),
  type: column('c.type', 'text'),
  status: column('c.status', 'text'),
  error: column('c.error', 'text', true),
  actor: column('u.account', 'text', true),
  issuedAt: column('c.issued_at', 'number'),
  answeredAt: column('c.answered_at', 'number', true),
});

/**
 * The commands the viewer may read: those of the devices it sees (docs/product.md: what concerns a device
 * is visible exactly when the device is), whoever issued them. The super administrator reads every one,
 * those of removed devices included.
 */
const commandScope = (db: Kysely<DB>, viewer: Viewer) => {
  const base = db.selectFrom('device_commands as c').leftJoin('accounts as u', 'u.id', 'c.issued_by');
  const devices = deviceScope(db, viewer);
  return devices === undefined ? base : base.where('c.device_id', 'in', devices);
};

/** The payload as published (always JSON: the server writes it). */
const sentCommand = (payload: string | undefined): unknown => (payload === undefined ? null : JSON.parse(payload));

/**
 * `GET /api/v1/device-commands`: a page of the commands the viewer may read, as DeviceCommandRecord
 * (src/resources/devices/requests.ts), with the list meaning of server/lists/. `command` is free JSON, not
 * a configured field, so it is read for the page's ids in a second query.
 */
const listCommands = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, body: ListBody): Promise<ListAnswer> => {
  const answer = asRecords(await renderList(viewerSource(ctx.db, viewer, commandScope), commandListing(), body));
  const ids = answer.list.map((record) => String(record.id));
  if (ids.length === 0) return answer;
  const payloads = await ctx.db.selectFrom('device_commands').select(['cmd_id', 'payload']).where('cmd_id', 'in', ids).execute();
  const byId = new Map(payloads.map((row) => [row.cmd_id, row.payload]));
  const list: WireRecord[] = answer.list.map((record) => ({ ...record, command: sentCommand(byId.get(String(record.id))) }));
  return { list, total: answer.total };
};

/**
 * Read-only under /api/v1 (docs/commands.md), in ra-data-simple-rest's shape like the audit log:
 *   GET /device-commands?sort=…&range=…&filter=…  the commands of devices the caller sees, Content-Range
 *   GET /device-commands/:cmdId                   one command; 404 also when its device is out of scope
 * A command is named by its cmdId.
 */
export const deviceCommandsResource: ServedResource = {
  config: deviceCommandsConfig,
  listing: commandListing,
  list: listCommands,
  recordId: z.string().min(1).max(CMD_ID_MAX).regex(CMD_ID_PATTERN),
};
