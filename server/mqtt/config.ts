import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The embedded MQTT broker's options and results (server/mqtt/broker.ts). Not wired into
 * server/config.ts yet; when it is, the environment maps as follows (docs/mqtt.md, "Embedded broker"):
 *
 *   MQTT_PORT   → `port` (default 1883), the embedded broker's TCP port
 *   MQTT_HOST   → `host` (default: HOST, the HTTP server's), the interface it listens on
 *   MQTT_URL    → no embedded broker at all: the server connects to that broker instead
 *   (none)      → `serverCredentials`: generated at start (`newServerCredentials`), never leave the process
 *   (none)      → `authenticate`: `(id, secret) => verifyDeviceSecret(ctx, id, secret)`
 *   (none)      → `maxPayloadBytes`: MAX_PAYLOAD_BYTES from src/domain/mqtt.ts
 */

/** The server's own MQTT identity. Its name contains a dot, which no device Id can (docs/mqtt.md). */
export const SERVER_USERNAME = 'oxygen.server';

export interface BrokerCredentials {
  username: string;
  password: string;
}

/** Fresh credentials for the server's internal client of the embedded broker: 32 random bytes, base64url. */
export const newServerCredentials = (): BrokerCredentials => ({ username: SERVER_USERNAME, password: randomBytes(32).toString('base64url') });

/** What the broker logs with: a Fastify (pino) logger fits. */
export type BrokerLog = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

export interface EmbeddedBrokerOptions {
  /** TCP port; 0 picks a free one (the answer's `port` says which). */
  port: number;
  /** Interface to listen on; default all interfaces. */
  host?: string;
  /** True when `secret` is device `deviceId`'s current secret (verifyDeviceSecret); called only for a valid device Id. */
  authenticate: (deviceId: string, secret: string) => Promise<boolean>;
  /** The server's own internal client: every topic, and `$share/<group>/…` subscriptions. Its username must not be a device Id. */
  serverCredentials: BrokerCredentials;
  log: BrokerLog;
  /** Largest payload a device may publish; larger ones are acknowledged and dropped. Default MAX_PAYLOAD_BYTES (4096). */
  maxPayloadBytes?: number;
  /**
   * Largest MQTT packet anyone may send, checked while it arrives (aedes has no such limit and would
   * buffer up to 256 MB): over it, the connection is closed. Default 65536, Mosquitto's setting in
   * docs/mqtt.md; must exceed maxPayloadBytes plus the topic and header.
   */
  maxPacketBytes?: number;
}

/** Why the broker refused something; each is counted in `counters`. */
export const REFUSAL_REASONS = ['badCredentials', 'clientIdDenied', 'publishDenied', 'subscribeDenied', 'oversized', 'packetTooLarge'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];
export type BrokerCounters = Record<RefusalReason, number>;

export const DEFAULT_MAX_PACKET_BYTES = 65_536;

export interface EmbeddedBroker {
  /** The port it listens on (the real one when `port` was 0). */
  readonly port: number;
  /** Refusals since start, by reason (live: read it whenever). */
  readonly counters: Readonly<BrokerCounters>;
  /** Closes every client, the listener and the broker. Idempotent. */
  close(): Promise<void>;
}
