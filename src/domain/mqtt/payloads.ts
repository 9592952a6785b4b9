import { z } from 'zod';
import { isBloodPressure } from '../bloodPressure';
import { CMD_ID_MAX, CMD_ID_PATTERN } from '../commands';
import { DEVICE_PERMISSIONS, DEVICE_STATES } from '../devices';
import { TOPIC_QOS, topicFor } from './topics';

/**
 * The MQTT payloads (docs/mqtt.md): the limits a chamber's values keep and the zod schema of each topic's
 * message, the same for the device maker, the server's ingestion, the console and the simulator.
 */

/** A Time more than this ahead of the server's clock is refused ('time'): the device's clock is wrong. */
export const MAX_FUTURE_MS = 5 * 60_000;

/** A Time before 2020-01-01T00:00:00Z is refused ('time'): a chamber whose real-time clock was never set. */
export const MIN_TIME = Date.UTC(2020, 0, 1);

/** Whether a device's Time is believable against the server's clock `now` (epoch ms). */
export const isTimeSane = (time: number, now: number): boolean => time >= MIN_TIME && time <= now + MAX_FUTURE_MS;

/**
 * Physically plausible ranges (inclusive). Each lies within the state-record configuration's range for
 * the same field (src/resources/state-records/config.ts; a test checks), so every accepted reading can be
 * stored and shown. A value outside is refused with 'schema:<field>': devices omit a field they have no
 * valid value for (an unattached pulse oximeter sends no HmSP02), rather than sending 0.
 */
export const RANGES = {
  SP: { min: 1, max: 3, unit: 'ATA' },
  ST: { min: 0, max: 240, unit: 'min', integer: true },
  // A sensor's span, not the chamber's rating: an overpressure reading must arrive to raise its alarm.
  RCP: { min: 0, max: 6, unit: 'ATA' },
  RRD: { min: 0, max: 240, unit: 'min', integer: true },
  RCPi02: { min: 0, max: 100, unit: '%' },
  RGPi02: { min: 0, max: 100, unit: '%' },
  RCT: { min: -20, max: 60, unit: '°C' },
  RCRH: { min: 0, max: 100, unit: '%RH' },
  RAP: { min: 50, max: 110, unit: 'kPa' },
  HmHR: { min: 20, max: 250, unit: 'bpm', integer: true },
  HmSP02: { min: 50, max: 100, unit: '%', integer: true },
} as const satisfies Record<string, { min: number; max: number; unit: string; integer?: boolean }>;

type Ranged = keyof typeof RANGES;
const ranged = (field: Ranged) => {
  const range: { min: number; max: number; integer?: boolean } = RANGES[field];
  return (range.integer ? z.number().int() : z.number()).min(range.min).max(range.max);
};

/** `SS`: pressurisation speed, fast, medium or slow. */
export const SPEEDS = ['F', 'M', 'S'] as const;
const onOff = z.literal([0, 1]);
const timeSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** Settings, the same in a telemetry record and in a settings command. */
const settingsShape = {
  SP: ranged('SP'),
  ST: ranged('ST'),
  SS: z.enum(SPEEDS),
  SL: onOff,
  SA: onOff,
};
export const SETTINGS_FIELDS = ['SP', 'ST', 'SS', 'SL', 'SA'] as const;

/** Operation codes as orders keep them (src/resources/orders/config.ts: OC, at most 32). */
const OC_MAX = 32;
/** No spaces, no control characters (any script otherwise, as orders keep it). */
const OC_PATTERN = /^[^\s\p{Cc}]+$/u;
const FAULT_CODE_MAX = 32;
const FAULT_CODE_PATTERN = /^[A-Za-z0-9_.:-]+$/;
const TEXT_MAX = 200;

/**
 * `oc/{Id}/telemetry`: one state record, wire names as docs/product.md spells them. Only Time is required;
 * a device sends the readings it has. `RAP` (atmospheric pressure, kPa) follows the R-reading names
 * (RCP cabin pressure, RCT cabin temperature).
 */
export const telemetrySchema = z.strictObject({
  Time: timeSchema,
  Id: z.string().optional(),
  L: onOff.optional(),
  SP: settingsShape.SP.optional(),
  ST: settingsShape.ST.optional(),
  SS: settingsShape.SS.optional(),
  SL: settingsShape.SL.optional(),
  SA: settingsShape.SA.optional(),
  RCP: ranged('RCP').optional(),
  RRD: ranged('RRD').optional(),
  RCPi02: ranged('RCPi02').optional(),
  RGPi02: ranged('RGPi02').optional(),
  RCT: ranged('RCT').optional(),
  RCRH: ranged('RCRH').optional(),
  RAP: ranged('RAP').optional(),
  HmHR: ranged('HmHR').optional(),
  HmSP02: ranged('HmSP02').optional(),
  HmBP: z.string().max(7).refine(isBloodPressure).optional(),
});
export type Telemetry = z.infer<typeof telemetrySchema>;

/** `oc/{Id}/event`: session start (with the booking's operation code) and end, emergency depressurisation, faults. */
export const eventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('sessionStart'), Time: timeSchema, OC: z.string().min(1).max(OC_MAX).regex(OC_PATTERN) }),
  z.strictObject({ type: z.literal('sessionEnd'), Time: timeSchema }),
  z.strictObject({ type: z.literal('emergency'), Time: timeSchema, active: z.boolean() }),
  z.strictObject({
    type: z.literal('fault'),
    Time: timeSchema,
    code: z.string().min(1).max(FAULT_CODE_MAX).regex(FAULT_CODE_PATTERN),
    message: z.string().max(TEXT_MAX).optional(),
  }),
]);
export type DeviceEvent = z.infer<typeof eventSchema>;

/** `oc/{Id}/status`: plain text, not JSON, retained; the device's last will publishes 'offline'. */
const STATUS_PAYLOADS = ['online', 'offline'] as const;
export type Status = (typeof STATUS_PAYLOADS)[number];
export const statusSchema = z.enum(STATUS_PAYLOADS);

/** The will a device registers when it connects. */
export const lastWillFor = (deviceId: string) =>
  ({ topic: topicFor(deviceId, 'status'), payload: 'offline', qos: TOPIC_QOS.status, retain: true }) as const;

const cmdId = z.string().min(1).max(CMD_ID_MAX).regex(CMD_ID_PATTERN);

/**
 * `oc/{Id}/cmd`: from the server. `Time` is when the server issued it, so a device can refuse a command
 * that reaches it long after (a persistent session delivers queued commands on reconnect).
 */
export const commandSchema = z.discriminatedUnion('type', [
  z.strictObject({ cmdId, type: z.literal('permission'), Time: timeSchema, Permission: z.enum(DEVICE_PERMISSIONS) }),
  z.strictObject({ cmdId, type: z.literal('state'), Time: timeSchema, State: z.enum(DEVICE_STATES) }),
  z
    .strictObject({
      cmdId,
      type: z.literal('settings'),
      Time: timeSchema,
      SP: settingsShape.SP.optional(),
      ST: settingsShape.ST.optional(),
      SS: settingsShape.SS.optional(),
      SL: settingsShape.SL.optional(),
      SA: settingsShape.SA.optional(),
    })
    .refine((command) => SETTINGS_FIELDS.some((field) => command[field] !== undefined), {
      path: ['settings'],
      message: 'a settings command changes at least one of SP, ST, SS, SL, SA',
    }),
]);
export type Command = z.infer<typeof commandSchema>;

/** `oc/{Id}/ack`: the device's answer to one command; `error` only when `ok` is false. */
export const ackSchema = z
  .strictObject({ cmdId, ok: z.boolean(), error: z.string().min(1).max(TEXT_MAX).optional() })
  .refine((ack) => !(ack.ok && ack.error !== undefined), { path: ['error'], message: 'error only when ok is false' });
export type Ack = z.infer<typeof ackSchema>;
