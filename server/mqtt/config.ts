import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { BrokerLimits } from '../config';
import type { QoS } from '../../src/domain/mqtt/topics';
import type { InboundMessage } from './transport';

/**
 * The embedded MQTT broker's options and results (server/mqtt/broker.ts). The MQTT plugin
 * (server/mqtt/plugin.ts) maps the configuration (docs/mqtt.md, "Embedded broker"):
 *
 *   MQTT_PORT   → `port` (default 1883, 1884 with --demo), the embedded broker's plain TCP port
 *   MQTT_HOST   → `host` (default 0.0.0.0), the interface it listens on
 *   MQTT_PLAIN  → `plain` (default on); off: no plain listener (but on 127.0.0.1 for cluster workers)
 *   MQTT_TLS_CERT, MQTT_TLS_KEY, MQTT_TLS_PORT → `tls`: the files' contents, and the TLS port (default 8883)
 *   MQTT_CONNECTIONS_PER_DEVICE, MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE, MQTT_LOGIN_FAILURES_PER_HOUR → `limits`
 *   MQTT_URL    → no embedded broker at all: the server connects to that broker instead
 *   (none)      → `serverCredentials`: generated at start (`newServerCredentials`); they leave the process
 *                 only for its own cluster workers (server/main.ts)
 *   (none)      → `authenticate`: `(id, secret) => verifyDeviceSecret(ctx, id, secret)`
 *   (none)      → `onDeviceMessage`: the ingestion, through the embedded transport
 *   (none)      → `maxPayloadBytes`: MAX_PAYLOAD_BYTES from src/domain/mqtt/parse.ts
 */

/** The server's own MQTT identity. Its name contains a dot, which no device Id can (docs/mqtt.md). */
const SERVER_USERNAME = 'oxygen.server';

/**
 * Where a cluster worker asks the primary's embedded broker to end a device's connection (payload: the
 * device Id). Only the server's own clients may publish there: a device publishes only on its own topics.
 */
export const DISCONNECT_TOPIC = 'oxygen-control/disconnect';

export interface BrokerCredentials {
  username: string;
  password: string;
}

/** Fresh credentials for the server's internal client of the embedded broker: 32 random bytes, base64url. */
export const newServerCredentials = (): BrokerCredentials => ({ username: SERVER_USERNAME, password: randomBytes(32).toString('base64url') });

/** What the broker logs with: a Fastify (pino) logger fits. */
export type BrokerLog = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

export interface EmbeddedBrokerOptions {
  /** The plain listener's TCP port; 0 picks a free one (the answer's `port` says which). */
  port: number;
  /** Interface to listen on; default all interfaces. */
  host?: string;
  /** False: no plain listener (then `tls` is required). Default true. */
  plain?: boolean;
  /** A TLS listener too: its port (0 picks a free one), interface (default `host`), certificate chain and key (PEM). */
  tls?: { port: number; host?: string; cert: Buffer | string; key: Buffer | string };
  /** What one device or address may cost the broker; default DEFAULT_BROKER_LIMITS (server/config.ts). */
  limits?: Partial<BrokerLimits>;
  /** True when `secret` is device `deviceId`'s current secret (verifyDeviceSecret); called only for a valid device Id. */
  authenticate: (deviceId: string, secret: string) => Promise<boolean>;
  /** The server's own internal client: every topic, and `$share/<group>/…` subscriptions. Its username must not be a device Id. */
  serverCredentials: BrokerCredentials;
  log: BrokerLog;
  /** Largest payload a device may publish; larger ones are acknowledged and dropped. Default MAX_PAYLOAD_BYTES (4096). */
  maxPayloadBytes?: number;
  /**
   * Device messages (telemetry, event, status, ack and last wills), handed over in-process once the rights
   * and size checks pass (an oversized payload is not handed over). A QoS 1 publish is held in aedes'
   * authorizePublish until `settle` is called, and aedes writes the PUBACK only after that callback, so the
   * device's PUBACK means "handled by the server"; one never settled is never acknowledged, and the device
   * sends it again after reconnecting. If it throws, the publish is not acknowledged and the device is
   * disconnected. Without it, messages are only routed to subscribers.
   */
  onDeviceMessage?: (message: InboundMessage) => void;
  /**
   * Largest MQTT packet anyone may send, checked while it arrives (aedes has no such limit and would
   * buffer up to 256 MB): over it, the connection is closed. Default 65536, Mosquitto's setting in
   * docs/mqtt.md; must exceed maxPayloadBytes plus the topic and header.
   */
  maxPacketBytes?: number;
}

/** Why the broker refused something; each is counted in `counters` (docs/mqtt.md, "Counters"). */
export const REFUSAL_REASONS = [
  'badCredentials',
  'clientIdDenied',
  'publishDenied',
  'subscribeDenied',
  'oversized',
  'packetTooLarge',
  'addressRateLimited',
  'signInThrottled',
  'deviceConnectionLimit',
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
export type BrokerCounters = Record<RefusalReason, number>;

export const DEFAULT_MAX_PACKET_BYTES = 65_536;

export interface EmbeddedBroker {
  /** The plain listener's port (the real one when `port` was 0); null without one. */
  readonly port: number | null;
  /** The TLS listener's port; null without one. */
  readonly tlsPort: number | null;
  /** Refusals since start, by reason (live: read it whenever). */
  readonly counters: Readonly<BrokerCounters>;
  /** Clients connected now (devices and the server's own). */
  readonly connectedClients: number;
  /** Publishes from inside the process, as the server (no rights check, no size limit). */
  publish(topic: string, payload: string | Buffer, options: { qos: QoS; retain: boolean }): Promise<void>;
  /** Receives, inside the process, what anyone publishes on `filter`; answers the unsubscribe function. */
  subscribe(filter: string, onMessage: (topic: string, payload: Buffer) => void): Promise<() => void>;
  /** Closes every connection of that device (its last will is published); answers how many there were. */
  disconnectDevice(deviceId: string): number;
  /** Closes every client, the listener and the broker. Idempotent. */
  close(): Promise<void>;
}
