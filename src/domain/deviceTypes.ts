/**
 * Device types (docs/device-types.md): a chamber's `Type` is 1 to 5, each type a chamber model with a name
 * and a rated maximum pressure, which the high-pressure mark and alarm compare the cabin pressure with.
 */
export const DEVICE_TYPE_MIN = 1;
export const DEVICE_TYPE_MAX = 5;

/** A rated maximum outside this band is no micro-pressure oxygen chamber's (ATA). */
export const RATED_MAX_ATA_MIN = 1.0;
export const RATED_MAX_ATA_MAX = 3.0;

/** The rated maximum of a type nobody has named (ATA): the alarm rule's default before types had one. */
export const DEFAULT_RATED_MAX_ATA = 2.0;

/** A device type as `GET /api/v1/device-types` answers it. */
export interface DeviceType {
  id: number;
  name: string;
  /** Rated maximum cabin pressure, ATA. */
  ratedMaxAta: number;
  /** Epoch milliseconds of the last edit. */
  updatedAt: number;
}

/** Each type's rated maximum by type number, as the console and the server look it up. */
export type RatedMaxima = ReadonlyMap<number, number>;

/** The rated maximum of `type`, or the default for a type the map does not hold. */
export const ratedMaxAtaIn = (maxima: RatedMaxima, type: number | undefined): number =>
  (type === undefined ? undefined : maxima.get(type)) ?? DEFAULT_RATED_MAX_ATA;

/**
 * The five types a new store starts with (migration 0013 writes the same values out; docs/device-types.md):
 * micro-pressure chamber models, rated 1.3 ATA for the soft single-seat chamber, 1.5 ATA for hard ones and
 * 2.0 ATA for the medical pressurisation chamber.
 */
export const DEFAULT_DEVICE_TYPES: readonly Omit<DeviceType, 'updatedAt'>[] = [
  { id: 1, name: '单人软体舱', ratedMaxAta: 1.3 },
  { id: 2, name: '单人硬体舱', ratedMaxAta: 1.5 },
  { id: 3, name: '双人舱', ratedMaxAta: 1.5 },
  { id: 4, name: '多人舱', ratedMaxAta: 1.5 },
  { id: 5, name: '医用加压舱', ratedMaxAta: 2.0 },
];

/**
 * Whether a set point lies above a rating (ATA), compared in hundredths as readings carry them: a set point
 * exactly at the rating is allowed (1.3 on a type rated 1.3), anything above it is not. The server, the
 * mocks and the console's settings form refuse such a set point (docs/commands.md, "Within the rating").
 */
export const isAboveRating = (setPoint: number, ratedMaxAta: number): boolean => Math.round(setPoint * 100) > Math.round(ratedMaxAta * 100);

/** The set points a simulated or seeded session is given, ATA. */
const SESSION_SET_POINTS = [1.3, 1.4, 1.5] as const;
/** How far below its type's rating a session's own set point stays: room for the pressure's noise, so a healthy session raises no alarm. */
export const SESSION_RATING_MARGIN_ATA = 0.1;

/**
 * A set point for a session the demo or the simulator makes up (docs/simulator.md): one of 1.3, 1.4 and
 * 1.5 ATA at least SESSION_RATING_MARGIN_ATA below the type's rating, else just that far below it (1.2
 * for a soft single-seat chamber rated 1.3), never under ambient (1.0).
 */
export const sessionSetPoint = (random: () => number, ratedMaxAta: number): number => {
  const ceiling = Math.round((ratedMaxAta - SESSION_RATING_MARGIN_ATA) * 100) / 100;
  const allowed = SESSION_SET_POINTS.filter((point) => !isAboveRating(point, ceiling));
  return allowed[Math.floor(random() * allowed.length)] ?? Math.max(1, ceiling);
};
