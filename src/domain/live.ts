import { z } from 'zod';
import { alarmRecordSchema } from './alarms/record';
import { MESSAGE_TYPES } from './messages';
import { COMMAND_STATUSES, COMMAND_TYPES } from './commands';
import { telemetrySchema } from './mqtt/payloads';
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
 * An `alarm` event is an alarm as `GET /api/v1/alarms` shows it, after each of its transitions (docs/alarms.md);
 * it goes to the viewers who see its device.
 * A `message` event tells one account that a message was made for it (docs/messages.md); it goes only to
 * that account's streams, and the console then reads its box again in the reader's language.
 * A `sessions` event says that sessions of one account ended (disabled, deleted, its password changed or
 * reset): every server process checks that account's open streams at once and ends those whose session
 * ended. It is never written to a stream.
 */
export const LIVE_TOPIC_ROOT = 'oxygen-live';
export const liveTopicFor = (deviceId: string): string => `${LIVE_TOPIC_ROOT}/${deviceId}`;
export const LIVE_TOPIC_FILTER = `${LIVE_TOPIC_ROOT}/+`;
/** An account's events relay on `oxygen-live/account.{id}`: a device Id never holds a dot, so the two never meet. */
const liveAccountTopicFor = (accountId: number): string => `${LIVE_TOPIC_ROOT}/account.${accountId}`;

/** The newest reading of a device: a telemetry payload (wire names) with the device Id. */
const liveReadingSchema = telemetrySchema.extend({ Id: z.string() });

const devicePatchSchema = z.strictObject({
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

/**
 * The fields of a device patch that change with every reading, not only when the device's state does.
 * With a fleet reporting every second they change on every device every second: a screen that does not
 * show them need not render again for them (src/resources/generate/StableDatagridBody.tsx).
 */
export const PER_READING_FIELDS: readonly (keyof DevicePatch)[] = ['LastSeen', 'Reading'];

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

/** A message made for `account` (its id in the store): the stream of that account alone carries it. */
const messageNoticeSchema = z.strictObject({
  account: z.number().int(),
  id: z.number().int(),
  type: z.enum(MESSAGE_TYPES),
});
export type MessageNotice = z.infer<typeof messageNoticeSchema>;

/** Sessions of `account` (its id in the store) ended. */
const sessionsEndedSchema = z.strictObject({ account: z.number().int() });

export const liveEventSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('device'), data: devicePatchSchema }),
  z.strictObject({ type: z.literal('command'), data: commandOutcomeSchema }),
  z.strictObject({ type: z.literal('message'), data: messageNoticeSchema }),
  z.strictObject({ type: z.literal('alarm'), data: alarmRecordSchema }),
  z.strictObject({ type: z.literal('sessions'), data: sessionsEndedSchema }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;

/** Who an event is for: viewers who see its device, or one account. */
type LiveAudience = { device: string } | { account: number };

export const liveEventAudience = (event: LiveEvent): LiveAudience => {
  if (event.type === 'message' || event.type === 'sessions') return { account: event.data.account };
  return { device: event.type === 'alarm' ? event.data.deviceId : event.data.Id };
};

/** The relay topic of an event: its device's, or its account's. */
export const liveTopicOf = (event: LiveEvent): string => {
  const audience = liveEventAudience(event);
  return 'account' in audience ? liveAccountTopicFor(audience.account) : liveTopicFor(audience.device);
};
