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
