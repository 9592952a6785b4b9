import { DEVICE_ID_MAX, DEVICE_ID_PATTERN } from '../devices';

/**
 * The MQTT topics between chambers and the server (docs/mqtt.md): `oc/{Id}/{kind}`, who publishes on
 * each with which QoS, and the broker's rights. Pure TypeScript: the console, the mocks, the server and
 * the simulator import it.
 */

export const TOPIC_ROOT = 'oc';
export const TOPIC_KINDS = ['telemetry', 'event', 'status', 'cmd', 'ack'] as const;
export type TopicKind = (typeof TOPIC_KINDS)[number];

export type QoS = 0 | 1 | 2;

/** Who publishes on each topic, with which QoS, and whether the broker keeps the last message. */
const TOPIC_RULES = {
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

/** `$share/oxygen/oc/+/telemetry` and the like: the server subscribes to every topic a device publishes on. */
export const serverSubscriptions = (group: string = SERVER_SHARE_GROUP): string[] =>
  DEVICE_PUBLISHES.map((kind) => `$share/${group}/${TOPIC_ROOT}/+/${kind}`);
