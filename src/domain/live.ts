import { z } from 'zod';
import { COMMAND_TYPES, telemetrySchema } from './mqtt/payloads';
import { DEVICE_PERMISSIONS, DEVICE_STATES } from './devices';

/**
 * Live updates: what the server streams to a browser tab (server-sent events on
 * `GET /api/v1/live`) and what server processes share with each other through the broker
 * (`oxygen-live/{Id}`, QoS 0, not retained; only the server's own MQTT user may use it).
 *
 * A `device` event is a patch of one device as the device list shows it (wire names of
 * src/resources/devices/config.ts) plus its newest reading: fields absent are unchanged. Patches for
 * one device are coalesced by merging, newest field wins.
 * A `command` event reports what became of one command sent to a device (sent, acknowledged, refused,
 * timed out).
 */
export const LIVE_TOPIC_ROOT = 'oxygen-live';
export const liveTopicFor = (deviceId: string): string => `${LIVE_TOPIC_ROOT}/${deviceId}`;
export const LIVE_TOPIC_FILTER = `${LIVE_TOPIC_ROOT}/+`;

/** The newest reading of a device: a telemetry payload (wire names) with the device Id. */
export const liveReadingSchema = telemetrySchema.extend({ Id: z.string() });
export type LiveReading = z.infer<typeof liveReadingSchema>;

export const devicePatchSchema = z.strictObject({
  Id: z.string(),
  Online: z.boolean().optional(),
  /** Epoch milliseconds of the last message from the device. */
  LastSeen: z.number().nullable().optional(),
  Emergency: z.boolean().optional(),
  State: z.enum(DEVICE_STATES).optional(),
  Permission: z.enum(DEVICE_PERMISSIONS).optional(),
  OrderNum: z.string().nullable().optional(),
  UpdateTime: z.number().optional(),
  /** The operation code of the running session, null when none runs. */
  SessionOC: z.string().nullable().optional(),
  Reading: liveReadingSchema.optional(),
});
export type DevicePatch = z.infer<typeof devicePatchSchema>;

export const COMMAND_STATUSES = ['sent', 'acked', 'refused', 'timeout'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];

export const commandOutcomeSchema = z.strictObject({
  cmdId: z.string(),
  Id: z.string(),
  type: z.enum(COMMAND_TYPES),
  status: z.enum(COMMAND_STATUSES),
  /** The device's reason when it refused. */
  error: z.string().optional(),
  /** Epoch milliseconds of this status. */
  at: z.number(),
});
export type CommandOutcome = z.infer<typeof commandOutcomeSchema>;

export const liveEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('device'), data: devicePatchSchema }),
  z.strictObject({ type: z.literal('command'), data: commandOutcomeSchema }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;

/** The device an event concerns: the live stream shows it only to viewers who see that device. */
export const liveEventDevice = (event: LiveEvent): string => event.data.Id;
