import type { Kysely } from 'kysely';
import { DEFAULT_RATED_MAX_ATA, isAboveRating } from '../../src/domain/deviceTypes';
import type { DB } from '../db/schema';
import { badInput } from '../http/envelope';

/**
 * Set points within the chamber's rating (docs/device-types.md, "Set points within the rating"): no write
 * may leave a chamber ordered above its type's rated maximum pressure. A settings command above it is
 * refused, and so are a device's move to a type rated below its set point in force and a type's rating
 * lowered below a set point in force on one of its chambers. Each refusal is 40000 naming the field and
 * the limit, before anything is written (the caller's transaction rolls back).
 */

interface TypeRating {
  type: number;
  name: string;
  ratedMaxAta: number;
}

/**
 * A type's name and rating as the store holds them; the default rating for a type it does not hold. With
 * `share` (PostgreSQL: SQLite has no row locks, its writers take turns anyway), the row is read FOR SHARE,
 * so an edit of the rating under way is waited for, and cannot commit a lower rating under a command that
 * read the higher one.
 */
export const typeRating = async (db: Kysely<DB>, type: number, share = false): Promise<TypeRating> => {
  const query = db.selectFrom('device_types').select(['name', 'rated_max_ata']).where('id', '=', type);
  const row = await (share ? query.forShare() : query).executeTakeFirst();
  return { type, name: row?.name ?? String(type), ratedMaxAta: row === undefined ? DEFAULT_RATED_MAX_ATA : Number(row.rated_max_ata) };
};

/** Refuses a settings command's `SP` above the device type's rating (40000 naming SP, the limit and the type). */
export const refuseAboveRating = (setPoint: number, rating: TypeRating): void => {
  if (!isAboveRating(setPoint, rating.ratedMaxAta)) return;
  throw badInput('device.setPointAboveRating', { field: 'SP', max: rating.ratedMaxAta, type: rating.type, name: rating.name });
};

const setPointIn = (json: string | null): number | undefined => {
  if (json === null) return undefined;
  try {
    const { SP } = JSON.parse(json) as { SP?: unknown };
    return typeof SP === 'number' ? SP : undefined;
  } catch {
    return undefined;
  }
};

interface SetPointInForce {
  device: string;
  setPoint: number;
}

/**
 * The highest set point in force on each device `which` selects, by device: the one its newest reading
 * reports, and any a settings command asked for since the chamber last reported (still on its way, or
 * acknowledged but not reported yet), which it runs with or soon will. Devices without either are left out.
 */
const setPointsInForce = async (db: Kysely<DB>, which: { type: number } | { device: string }): Promise<SetPointInForce[]> => {
  const devices = db.selectFrom('devices').where((eb) => ('type' in which ? eb('devices.type', '=', which.type) : eb('devices.id', '=', which.device)));
  const reported = await devices.select(['devices.id', 'devices.latest']).execute();
  const asked = await devices
    .innerJoin('device_commands as c', 'c.device_id', 'devices.id')
    .select(['devices.id', 'c.payload'])
    .where('c.type', '=', 'settings')
    .where('c.status', 'in', ['sent', 'acked'])
    .where((eb) => eb('c.issued_at', '>=', eb.fn.coalesce('devices.last_seen_at', eb.lit(0))))
    .execute();
  const highest = new Map<string, number>();
  for (const { id, json } of [...reported.map((row) => ({ id: row.id, json: row.latest })), ...asked.map((row) => ({ id: row.id, json: row.payload }))]) {
    const setPoint = setPointIn(json);
    if (setPoint !== undefined) highest.set(id, Math.max(setPoint, highest.get(id) ?? setPoint));
  }
  return [...highest].map(([device, setPoint]) => ({ device, setPoint }));
};

/** Refuses moving `device` to a type rated below a set point in force on it (40000 naming Type). */
export const refuseTypeBelowSetPoint = async (db: Kysely<DB>, device: string, rating: TypeRating): Promise<void> => {
  const [inForce] = await setPointsInForce(db, { device });
  if (inForce === undefined || !isAboveRating(inForce.setPoint, rating.ratedMaxAta)) return;
  throw badInput('device.typeBelowSetPoint', { field: 'Type', type: rating.type, name: rating.name, max: rating.ratedMaxAta, device, setPoint: inForce.setPoint });
};

/**
 * Refuses a rating for `type` below a set point in force on one of its chambers (40000 naming
 * ratedMaxAta, how many chambers, and the one with the highest set point).
 */
export const refuseRatingBelowSetPoints = async (db: Kysely<DB>, type: number, ratedMaxAta: number): Promise<void> => {
  const above = (await setPointsInForce(db, { type }))
    .filter((each) => isAboveRating(each.setPoint, ratedMaxAta))
    .sort((a, b) => b.setPoint - a.setPoint || a.device.localeCompare(b.device));
  const [highest] = above;
  if (highest === undefined) return;
  throw badInput('deviceType.ratingBelowSetPoint', { field: 'ratedMaxAta', max: ratedMaxAta, count: above.length, device: highest.device, setPoint: highest.setPoint });
};
