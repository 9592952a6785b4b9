import { z } from 'zod';
import { DEVICE_ID_MAX, DEVICE_ID_PATTERN, DEVICE_PERMISSIONS, DEVICE_STATES } from './devices';
import { isBloodPressure } from './bloodPressure';

/**
 * The MQTT contract between chambers and the server (decisions.md, "Devices and readings"; the device
 * maker's page is docs/mqtt.md, which shows MQTT_EXAMPLES below literally). Pure TypeScript and zod, no
 * Node APIs: the console, the mocks, the server's ingestion and a simulator all import it.
 *
 * Every message a device sends goes through `parseMessage`, which never throws: it answers the message or
 * a short machine-readable reason ('topic', 'size', 'encoding', 'json', 'schema:<field>', 'idMismatch',
 * 'time'), which the server logs and counts before dropping the message.
 */

// ---------------------------------------------------------------------------------------------------
// Topics

export const TOPIC_ROOT = 'oc';
export const TOPIC_KINDS = ['telemetry', 'event', 'status', 'cmd', 'ack'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];

export type QoS = 0 | 1 | 2;

/** Who publishes on each topic, with which QoS, and whether the broker keeps the last message. */
export const TOPIC_RULES = {
  telemetry: { publisher: 'device', qos: 1, retain: false },
  event: { publisher: 'device', qos: 1, retain: false },
  status: { publisher: 'device', qos: 1, retain: true },
  cmd: { publisher: 'server', qos: 1, retain: false },
  ack: { publisher: 'device', qos: 1, retain: false },
} as const satisfies Record<TopicKind, { publisher: 'device' | 'server'; qos: QoS; retain: boolean }>;

export const TOPIC_QOS: Record<TopicKind, QoS> = {
  telemetry: TOPIC_RULES.telemetry.qos,
  event: TOPIC_RULES.event.qos,
  status: TOPIC_RULES.status.qos,
  cmd: TOPIC_RULES.cmd.qos,
  ack: TOPIC_RULES.ack.qos,
};
export const TOPIC_RETAIN: Record<TopicKind, boolean> = {
  telemetry: TOPIC_RULES.telemetry.retain,
  event: TOPIC_RULES.event.retain,
  status: TOPIC_RULES.status.retain,
  cmd: TOPIC_RULES.cmd.retain,
  ack: TOPIC_RULES.ack.retain,
};

/** A device publishes on its own telemetry, event, status and ack topics and subscribes to its own cmd topic. */
export const DEVICE_PUBLISHES: readonly TopicKind[] = TOPIC_KINDS.filter((kind) => TOPIC_RULES[kind].publisher === 'device');
export const DEVICE_SUBSCRIBES: readonly TopicKind[] = TOPIC_KINDS.filter((kind) => TOPIC_RULES[kind].publisher === 'server');
/** The server does the reverse, for every device. */
export const SERVER_PUBLISHES = DEVICE_SUBSCRIBES;
export const SERVER_SUBSCRIBES = DEVICE_PUBLISHES;

/** The longest valid topic: `oc/` + the longest Id + `/telemetry`. Longer topics are refused before any parsing. */
export const TOPIC_MAX = TOPIC_ROOT.length + 1 + DEVICE_ID_MAX + 1 + Math.max(...TOPIC_KINDS.map((kind) => kind.length));

export const isDeviceId = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= DEVICE_ID_MAX && DEVICE_ID_PATTERN.test(value);

/** `oc/{Id}/{kind}`. Throws a RangeError for an Id that is not one (it could smuggle `/`, `+` or `#` into a topic). */
export const topicFor = (deviceId: string, kind: TopicKind): string => {
  if (!isDeviceId(deviceId)) throw new RangeError(`not a device Id: ${JSON.stringify(deviceId)}`);
  return `${TOPIC_ROOT}/${deviceId}/${kind}`;
};

const isTopicKind = (value: string): value is TopicKind => (TOPIC_KINDS as readonly string[]).includes(value);

/** `oc/{Id}/{kind}` → its parts; anything else (wildcards, `$share/…`, other roots, extra levels) → null. */
export const parseTopic = (topic: unknown): { deviceId: string; kind: TopicKind } | null => {
  if (typeof topic !== 'string' || topic.length > TOPIC_MAX) return null;
  const parts = topic.split('/');
  if (parts.length !== 3) return null;
  const [root, deviceId, kind] = parts as [string, string, string];
  if (root !== TOPIC_ROOT || !isDeviceId(deviceId) || !isTopicKind(kind)) return null;
  return { deviceId, kind };
};

/** Broker rights: a device (MQTT username = its Id) publishes only on its own device-published topics. */
export const deviceMayPublish = (username: string, topic: string): boolean => {
  const parsed = parseTopic(topic);
  return parsed !== null && parsed.deviceId === username && DEVICE_PUBLISHES.includes(parsed.kind);
};

/** …and subscribes only to its own cmd topic, exactly (no wildcards, no shared subscription). */
export const deviceMaySubscribe = (username: string, topicFilter: string): boolean =>
  isDeviceId(username) && DEVICE_SUBSCRIBES.some((kind) => topicFilter === topicFor(username, kind));

/** The server's consumer group: several server instances share the devices' messages between them. */
export const SERVER_SHARE_GROUP = 'oxygen';

/** `$share/oxygen/oc/+/telemetry` and the like: what the server subscribes to. */
export const serverSubscriptions = (group: string = SERVER_SHARE_GROUP): string[] =>
  SERVER_SUBSCRIBES.map((kind) => `$share/${group}/${TOPIC_ROOT}/+/${kind}`);

// ---------------------------------------------------------------------------------------------------
// Limits

/** The largest payload accepted on any topic (a full telemetry record is about 300 bytes). */
export const MAX_PAYLOAD_BYTES = 4096;

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
export const OC_MAX = 32;
/** No spaces, no control characters (any script otherwise, as orders keep it). */
export const OC_PATTERN = /^[^\s\p{Cc}]+$/u;
export const CMD_ID_MAX = 64;
export const CMD_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const FAULT_CODE_MAX = 32;
export const FAULT_CODE_PATTERN = /^[A-Za-z0-9_.:-]+$/;
export const TEXT_MAX = 200;

// ---------------------------------------------------------------------------------------------------
// Payloads

/**
 * `oc/{Id}/telemetry`: one state record, wire names as decisions.md spells them. Only Time is required;
 * a device sends the readings it has. `RAP` (atmospheric pressure, kPa) follows the R-reading names
 * (RCP cabin pressure, RCT cabin temperature); it is accepted but not stored yet (the state records have
 * no column for it).
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
export const EVENT_TYPES = ['sessionStart', 'sessionEnd', 'emergency', 'fault'] as const;
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
export const STATUS_PAYLOADS = ['online', 'offline'] as const;
export const statusPayloads = STATUS_PAYLOADS;
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
export const COMMAND_TYPES = ['permission', 'state', 'settings'] as const;
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

// ---------------------------------------------------------------------------------------------------
// Parsing

export type MqttMessage =
  | { kind: 'telemetry'; message: Telemetry }
  | { kind: 'event'; message: DeviceEvent }
  | { kind: 'status'; message: Status }
  | { kind: 'cmd'; message: Command }
  | { kind: 'ack'; message: Ack };

export type RejectReason = 'topic' | 'size' | 'encoding' | 'json' | 'schema' | `schema:${string}` | 'idMismatch' | 'time';

/**
 * A refusal: `reason` comes from a closed set (the topic kinds' own field names, 'schema:unknown' for any
 * field the contract does not have), so it can label a counter; `detail` is for the log only (the unknown
 * field's name, cut to printable ASCII, or the schema's message).
 */
export type Rejection = { ok: false; reason: RejectReason; detail?: string };
export type ParseResult = ({ ok: true; deviceId: string } & MqttMessage) | Rejection;

const SCHEMAS = { telemetry: telemetrySchema, event: eventSchema, cmd: commandSchema, ack: ackSchema } as const;

const utf8 = new TextEncoder();

/** Printable ASCII, at most 40 characters: a device-chosen string made safe for a log line. */
const printable = (value: string): string => value.replace(/[^\x20-\x7e]/g, '?').slice(0, 40);

/** The first issue: the field it is about ('schema:RCP'), 'schema:unknown' for a field not in the contract, or 'schema'. */
const schemaRejection = (error: z.ZodError): Rejection => {
  const issue = error.issues[0];
  if (!issue) return { ok: false, reason: 'schema' };
  if (issue.code === 'unrecognized_keys') return { ok: false, reason: 'schema:unknown', detail: printable(issue.keys.join(',')) };
  const field = issue.path[0];
  return { ok: false, reason: field === undefined ? 'schema' : `schema:${String(field)}`, detail: printable(issue.message) };
};

const decode = (payload: Uint8Array | string): string | null => {
  if (typeof payload === 'string') return payload;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload);
  } catch {
    return null;
  }
};

const byteLength = (payload: Uint8Array | string): number =>
  typeof payload === 'string' ? (payload.length > MAX_PAYLOAD_BYTES ? payload.length : utf8.encode(payload).length) : payload.byteLength;

const parse = (topic: unknown, payload: Uint8Array | string, now: number): ParseResult => {
  const parsed = parseTopic(topic);
  if (!parsed) return { ok: false, reason: 'topic' };
  const { deviceId, kind } = parsed;
  if (typeof payload !== 'string' && !ArrayBuffer.isView(payload)) return { ok: false, reason: 'encoding' };
  if (byteLength(payload) > MAX_PAYLOAD_BYTES) return { ok: false, reason: 'size' };
  const text = decode(payload);
  if (text === null) return { ok: false, reason: 'encoding' };

  if (kind === 'status') {
    const status = statusSchema.safeParse(text);
    return status.success ? { ok: true, deviceId, kind, message: status.data } : { ok: false, reason: 'schema' };
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'json' };
  }
  const result = SCHEMAS[kind].safeParse(json);
  if (!result.success) return schemaRejection(result.error);
  const message = result.data;
  if ('Id' in message && message.Id !== undefined && message.Id !== deviceId) return { ok: false, reason: 'idMismatch' };
  if ('Time' in message && !isTimeSane(message.Time, now)) return { ok: false, reason: 'time' };
  return { ok: true, deviceId, kind, message } as ParseResult;
};

/**
 * One MQTT message → the device, the topic kind and the validated message, or why it is refused. `now`
 * is the receiver's clock (epoch ms) for the Time rule. Never throws, whatever the topic or the bytes.
 */
export const parseMessage = (topic: string, payload: Uint8Array | string, now: number): ParseResult => {
  try {
    return parse(topic, payload, now);
  } catch {
    // Not reachable with the checks above; the contract is that ingestion never dies on a message.
    return { ok: false, reason: 'schema' };
  }
};

// ---------------------------------------------------------------------------------------------------
// Examples: docs/mqtt.md shows these literally, and mqtt.spec.ts parses them and finds them in the page.

export const EXAMPLE_DEVICE_ID = 'OC-BJ-001';
/** 2026-01-05T08:00:00Z: the session started at 07:42 (sessionStart) and ends at 08:42 (sessionEnd). */
export const EXAMPLE_TIME = 1767600000000;

const example = (kind: TopicKind, payload: string) => ({ kind, topic: `${TOPIC_ROOT}/${EXAMPLE_DEVICE_ID}/${kind}`, payload });

export const MQTT_EXAMPLES = {
  online: example('status', 'online'),
  offline: example('status', 'offline'),
  telemetry: example(
    'telemetry',
    '{"Time":1767600000000,"L":1,"SP":1.3,"ST":60,"SS":"M","SL":1,"SA":0,"RCP":1.28,"RRD":42,"RCPi02":22.4,"RGPi02":93.1,"RCT":24.6,"RCRH":58,"RAP":101.3,"HmHR":72,"HmSP02":98,"HmBP":"118/76"}',
  ),
  telemetryWithId: example('telemetry', '{"Id":"OC-BJ-001","Time":1767600001000,"RCP":1.29,"RCPi02":22.5,"RCT":24.6}'),
  sessionStart: example('event', '{"type":"sessionStart","Time":1767598920000,"OC":"583920"}'),
  sessionEnd: example('event', '{"type":"sessionEnd","Time":1767602520000}'),
  emergencyOn: example('event', '{"type":"emergency","Time":1767600002000,"active":true}'),
  emergencyOff: example('event', '{"type":"emergency","Time":1767600062000,"active":false}'),
  fault: example('event', '{"type":"fault","Time":1767600003000,"code":"O2_SENSOR","message":"cabin oxygen sensor not responding"}'),
  cmdPermission: example('cmd', '{"cmdId":"c1f4e2a0","type":"permission","Time":1767600010000,"Permission":"Open"}'),
  cmdState: example('cmd', '{"cmdId":"c1f4e2a1","type":"state","Time":1767600011000,"State":"Stop"}'),
  cmdSettings: example('cmd', '{"cmdId":"c1f4e2a2","type":"settings","Time":1767600012000,"SP":1.3,"ST":60,"SS":"S"}'),
  ackOk: example('ack', '{"cmdId":"c1f4e2a0","ok":true}'),
  ackError: example('ack', '{"cmdId":"c1f4e2a2","ok":false,"error":"door open: settings locked"}'),
} as const;

/** What the server refuses, and the reason it logs: the errors section of docs/mqtt.md. */
export const MQTT_REJECTED_EXAMPLES = [
  { topic: 'oc/OC-BJ-001/telemetry', payload: '{"Time":1767600000000,"RCP":1.28', reason: 'json' },
  { topic: 'oc/OC-BJ-001/telemetry', payload: '{"Time":1767600000000,"RCP":"1.28"}', reason: 'schema:RCP' },
  { topic: 'oc/OC-BJ-001/telemetry', payload: '{"Time":1767600000000,"RCPi02":140}', reason: 'schema:RCPi02' },
  { topic: 'oc/OC-BJ-001/telemetry', payload: '{"Time":1767600000000,"Pressure":1.28}', reason: 'schema:unknown' },
  { topic: 'oc/OC-BJ-001/telemetry', payload: '{"RCP":1.28}', reason: 'schema:Time' },
  { topic: 'oc/OC-BJ-001/telemetry', payload: '{"Id":"OC-BJ-002","Time":1767600000000}', reason: 'idMismatch' },
  { topic: 'oc/OC-BJ-001/telemetry', payload: '{"Time":1767604000000,"RCP":1.28}', reason: 'time' },
  { topic: 'oc/OC-BJ-001/telemetry', payload: '{"Time":0,"RCP":1.28}', reason: 'time' },
  { topic: 'oc/OC-BJ-001/status', payload: 'ONLINE', reason: 'schema' },
  { topic: 'oc/OC-BJ-001/event', payload: '{"type":"sessionStart","Time":1767600000000}', reason: 'schema:OC' },
  { topic: 'oc/OC-BJ-001/ack', payload: '{"cmdId":"c1f4e2a0","ok":"yes"}', reason: 'schema:ok' },
  { topic: 'oc/OC-BJ-001/readings', payload: '{"Time":1767600000000}', reason: 'topic' },
] as const satisfies readonly { topic: string; payload: string; reason: RejectReason }[];

/** The server's clock for the examples above: 2026-01-05T09:00:00Z, an hour after EXAMPLE_TIME. */
export const EXAMPLE_NOW = EXAMPLE_TIME + 3_600_000;
