import type { Kysely } from 'kysely';
import { deviceTypesConfig } from '../../src/resources/device-types/config';
import type { DB } from '../db/schema';
import { renderList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import type { Viewer } from '../scope/service';

/** Device types under their wire names (src/domain/deviceTypes.ts, DeviceType) ↔ the device_types table. */
const deviceTypeListing = defineListing(deviceTypesConfig, {
  id: column('t.id', 'number'),
  name: column('t.name', 'text'),
  ratedMaxAta: column('t.rated_max_ata', 'number'),
  updatedAt: column('t.updated_at', 'number'),
});

/** Every role reads all five types: they name the models of the devices it sees, and hold nothing of any account. */
const everyType = (db: Kysely<DB>, _viewer: Viewer) => db.selectFrom('device_types as t');

/** `GET /api/v1/device-types` and `/:id` (docs/device-types.md). */
export const deviceTypesResource: ServedResource = {
  config: deviceTypesConfig,
  listing: deviceTypeListing,
  list: (ctx, viewer, body) => renderList(viewerSource(ctx.db, viewer, everyType), deviceTypeListing(), body),
};
