import type { z } from 'zod';
import { ackSchema, commandSchema, eventSchema, isTimeSane, statusSchema, telemetrySchema } from './payloads';
import type { Ack, Command, DeviceEvent, Status, Telemetry } from './payloads';
import { parseTopic } from './topics';

/**
 * Every message a device sends goes through `parseMessage`, which never throws: it answers the message or
 * a short machine-readable reason ('topic', 'size', 'encoding', 'json', 'schema:<field>', 'idMismatch',
 * 'time'), which the server logs and counts before dropping the message.
 */

/** The largest payload accepted on any topic (a full telemetry record is about 300 bytes). */
export const MAX_PAYLOAD_BYTES = 4096;

type MqttMessage =
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
type Rejection = { ok: false; reason: RejectReason; detail?: string };
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
