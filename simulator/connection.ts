import mqtt, { type MqttClient } from 'mqtt';
import { lastWillFor, type Ack, type DeviceEvent, type Telemetry } from '../src/domain/mqtt/payloads';
import { topicFor, TOPIC_QOS, TOPIC_RETAIN } from '../src/domain/mqtt/topics';

/**
 * One chamber's MQTT client, as docs/mqtt.md asks of a device: client id, username = its Id, password =
 * its secret, a persistent session (clean false), last will `offline` (QoS 1, retained); after each
 * CONNACK `online` (retained) and the subscription to its own cmd topic. A refused CONNACK (bad
 * credentials) asks for a new secret and connects again with it.
 */

export interface ConnectionOptions {
  url: string;
  /** The certificate (or CA) to trust for an mqtts:// broker, PEM; default the system's CAs. */
  ca?: Buffer;
  deviceId: string;
  secret: string;
  /** The broker refused the secret: answer a new one (rotation). */
  renewSecret: () => Promise<string>;
  /** A command's payload, as received on `oc/{Id}/cmd`. */
  onCommand: (payload: Buffer) => void;
  /** After each successful (re)connection, `online` and the subscription sent. */
  onConnect: () => void;
  /** Once the broker has granted the cmd subscription (after each connection): commands now reach the chamber. */
  onSubscribed?: () => void;
  onProblem: (message: string) => void;
  /** Seconds; docs/mqtt.md recommends 30. */
  keepalive?: number;
}

/** CONNACK return codes of MQTT 3.1.1 that mean "these credentials will not do". */
const BAD_CREDENTIALS = new Set([4, 5]);
/** A secret the broker refuses again this soon after its rotation is not retried at once (ms). */
const RENEW_BACKOFF_MS = 30_000;
const RECONNECT_PERIOD_MS = 2000;

export class ChamberConnection {
  private readonly client: MqttClient;
  private renewedAt = 0;
  private renewTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The last problem reported, so a broker that stays away is reported once, not every reconnect period. */
  private problem: string | undefined;

  constructor(private readonly options: ConnectionOptions) {
    const { deviceId } = options;
    this.client = mqtt.connect(options.url, {
      clientId: deviceId,
      username: deviceId,
      password: options.secret,
      clean: false,
      protocolVersion: 4,
      keepalive: options.keepalive ?? 30,
      reconnectPeriod: RECONNECT_PERIOD_MS,
      connectTimeout: 10_000,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      will: { ...lastWillFor(deviceId), payload: Buffer.from(lastWillFor(deviceId).payload) },
    });
    this.client.on('connect', () => {
      this.problem = undefined;
      this.client.publish(topicFor(deviceId, 'status'), 'online', { qos: TOPIC_QOS.status, retain: TOPIC_RETAIN.status });
      this.client.subscribe(topicFor(deviceId, 'cmd'), { qos: TOPIC_QOS.cmd }, (error) => {
        if (error === null) options.onSubscribed?.();
      });
      options.onConnect();
    });
    this.client.on('message', (topic, payload) => {
      if (topic === topicFor(deviceId, 'cmd')) options.onCommand(payload);
    });
    this.client.on('error', (error: Error & { code?: unknown }) => {
      if (typeof error.code === 'number' && BAD_CREDENTIALS.has(error.code)) this.renew();
      else this.report(error.message);
    });
  }

  get connected(): boolean {
    return this.client.connected;
  }

  /** Telemetry is sent only while connected: readings are not buffered while the chamber is away. */
  telemetry(message: Telemetry): void {
    if (this.client.connected) this.publish('telemetry', message);
  }

  /** Events and acknowledgements wait in mqtt.js's queue while disconnected. */
  event(message: DeviceEvent): void {
    this.publish('event', message);
  }

  ack(message: Ack): void {
    this.publish('ack', message);
  }

  /** Loses the connection without DISCONNECT, so the broker publishes the last will. */
  drop(): void {
    this.client.end(true);
  }

  /** Connects again after a drop (events that happened meanwhile are the chamber's to resend). */
  restore(): void {
    if (!this.closed) this.client.reconnect();
  }

  /** A clean goodbye: `offline` (retained), then DISCONNECT, so no last will. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.renewTimer);
    if (this.client.connected) {
      await this.client
        .publishAsync(topicFor(this.options.deviceId, 'status'), 'offline', { qos: TOPIC_QOS.status, retain: TOPIC_RETAIN.status })
        .catch(() => undefined);
    }
    await this.client.endAsync(!this.client.connected);
  }

  private publish(kind: 'telemetry' | 'event' | 'ack', message: object): void {
    if (this.closed || this.client.disconnecting) return;
    this.client.publish(topicFor(this.options.deviceId, kind), JSON.stringify(message), { qos: TOPIC_QOS[kind], retain: TOPIC_RETAIN[kind] }, (error) => {
      // A publish cut short by a drop or a reconnection is the chamber's loss, as a real one's would be.
      if (error instanceof Error && !this.client.disconnecting && !this.closed) this.report(`publish on ${kind}: ${error.message}`);
    });
  }

  private report(problem: string): void {
    if (problem === this.problem) return;
    this.problem = problem;
    this.options.onProblem(problem);
  }

  /** The broker refused the secret: rotate it (at most once per RENEW_BACKOFF_MS) and connect with the new one. */
  private renew(): void {
    if (this.closed) return;
    const wait = Math.max(0, this.renewedAt + RENEW_BACKOFF_MS - Date.now());
    clearTimeout(this.renewTimer);
    this.renewTimer = setTimeout(() => {
      this.renewedAt = Date.now();
      this.options.renewSecret().then(
        (secret) => {
          if (this.closed) return;
          this.client.options.password = secret;
          this.client.reconnect();
        },
        (error: unknown) => {
          this.report(`could not rotate the secret: ${error instanceof Error ? error.message : String(error)}`);
          this.renew();
        },
      );
    }, wait);
  }
}
