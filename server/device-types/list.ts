import type { Kysely } from 'kysely';
import { deviceTypesConfig } from '../../src/resources/device-types/config';
import type { DB } from '../db/schema';
import { renderList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import type { Viewer } from '../scope/service';
import { refuseRatingBelowSetPoints } from './rating';

/** Device types under their wire names (src/domain/deviceTypes.ts, DeviceType) ↔ the device_types table. */
const deviceTypeListing = defineListing(deviceTypesConfig, {
  id: column('t.id', 'number'),
  name: column('t.name', 'text'),
  ratedMaxAta: column('t.rated_max_ata', 'number'),
  updatedAt: column('t.updated_at', 'number'),
});

/** Every role reads all five types: they name the models of the devices it sees, and hold nothing of any account. */
const everyType = (db: Kysely<DB>, _viewer: Viewer) => db.selectFrom('device_types as t');

/**
 * `GET /api/v1/device-types` and `/:id`, and `PUT /api/v1/device-types/:id` (docs/device-types.md): the super
 * administrator renames a type or changes its rated maximum pressure, the server's clock stamps `updatedAt`,
 * audited as `deviceType.update`. Types are fixed: the policy grants no create or delete, so neither route exists.
 */
export const deviceTypesResource: ServedResource = {
  config: deviceTypesConfig,
  listing: deviceTypeListing,
  list: (ctx, viewer, body) => renderList(viewerSource(ctx.db, viewer, everyType), deviceTypeListing(), body),
  writes: {
    table: 'device_types',
    stamp: 'updatedAt',
    // A rating lowered below a set point in force on one of the type's chambers is refused (./rating.ts). The
    // type's row is written first, so a settings command that reads the rating meanwhile waits for this
    // transaction, and one that read it before has its command recorded, which the check counts once it commits.
    rules: async (db, { id, before, after }) => {
      const rating = Number(after?.ratedMaxAta);
      if (rating < Number(before?.ratedMaxAta)) await refuseRatingBelowSetPoints(db, Number(id), rating);
    },
  },
};
