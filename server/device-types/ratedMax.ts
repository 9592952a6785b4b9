import type { Kysely } from 'kysely';
import { ratedMaxAtaIn, type RatedMaxima } from '../../src/domain/deviceTypes';
import type { DB } from '../db/schema';

/**
 * Each device type's rated maximum pressure (ATA), read from the store: what the safety alarms compare a
 * chamber's cabin pressure with (docs/device-types.md). Read it once per evaluation pass, not per reading:
 * five rows.
 */
export const ratedMaxima = async (db: Kysely<DB>): Promise<RatedMaxima> => {
  const rows = await db.selectFrom('device_types').select(['id', 'rated_max_ata']).execute();
  return new Map(rows.map((row) => [Number(row.id), Number(row.rated_max_ata)]));
};

/** The rated maximum pressure (ATA) of one device type; the default (2.0) for a type the store does not hold. */
export const ratedMaxAtaOf = async (db: Kysely<DB>, type: number): Promise<number> => ratedMaxAtaIn(await ratedMaxima(db), type);
