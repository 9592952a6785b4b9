import mqtt, { type IClientOptions, type MqttClient, type Packet } from 'mqtt';
import { LIVE_TOPIC_FILTER, LIVE_TOPIC_ROOT } from '../../src/domain/live';
import { SERVER_SHARE_GROUP, serverSubscriptions } from '../../src/domain/mqtt/topics';
import { DISCONNECT_TOPIC, type BrokerLog } from './config';
import { NoBrokerError } from './link';
import type { InboundMessage, MqttTransport } from './transport';

/**
 * The server as an MQTT client (mqtt.js), for two brokers:
 *
 * - `external` (MQTT_URL): MQTT 5 with a persistent session under a stable client id, the device topics
 *   through the shared subscriptions `$share/oxygen/oc/+/<kind>` (several server instances split them),
 *   and the live relay `oxygen-live/+` unshared (every instance gets every event). A device message is
 *   acknowledged to the broker (PUBACK) only when the server settles it, so the broker keeps it, and sends
 *   it again after a reconnection, until its batch has committed.
 * - `primary`: a cluster worker beside a primary that runs the embedded broker (aedes: MQTT 3.1.1), for
 *   commands, the live relay and disconnect requests only; it never takes device messages.
 *
 * Deferring the PUBACK: mqtt.js handles one incoming packet at a time and reads the next only after the
 * PUBACK of a QoS 1 message is written (customHandleAcks' callback, then handleMessage's, then the PUBACK),
 * so holding either callback until a batch commits would hold every later message with it. Instead the
 * client's own PUBACKs are swallowed (`holdAcks`) and `settle` writes each one. A settle that comes after
 * the connection that delivered the message has gone writes nothing: mqtt.js would queue it for the next
 * connection, where its packet id may by then name another message; the broker sends the message again
 * on the resumed session instead (a duplicate that ingestion stores once).
 */

/** How long a first connection may take before the start fails. */
const FIRST_CONNECT_TIMEOUT_MS = 10_000;
/** How long close() waits for a clean DISCONNECT before dropping the connection. */
const CLOSE_TIMEOUT_MS = 5_000;
/**
 * MQTT 5 Receive Maximum: how many unacknowledged QoS 1 messages the broker may have in flight to this
 * client. Acknowledgements wait for a batch commit, so the broker's default (Mosquitto: 20) would cap
 * ingestion at 20 messages per commit.
 */
const RECEIVE_MAXIMUM = 2000;
/** MQTT 5 Session Expiry Interval: how long the broker keeps this client's session and messages while it is away. */
const SESSION_EXPIRY_SECONDS = 7 * 24 * 3600;

export interface ClientTransportOptions {
  broker: 'external' | 'primary';
  /** mqtt://, mqtts://, ws:// or wss://, without credentials. */
  url: string;
  username: string | undefined;
  password: string | undefined;
  clientId: string;
  log: BrokerLog;
  /** The shared subscriptions' group; default SERVER_SHARE_GROUP (tests use their own). */
  shareGroup?: string;
  /** Reconnection delay; default 1000 ms. */
  reconnectPeriodMs?: number;
}

export interface ClientTransport extends MqttTransport {
  readonly connected: boolean;
  /** Reconnections since start. */
  readonly reconnects: number;
  /** Device messages handed to `onMessage` and not settled yet. */
  readonly pending: number;
}

type SendPacket = (packet: Packet, callback?: (error?: Error) => void) => void;

/** Makes mqtt.js skip its own PUBACKs (their callbacks still run, so it goes on reading); answers the real sender. */
const holdAcks = (client: MqttClient): SendPacket => {
  const internals = client as unknown as { _sendPacket?: (packet: Packet, callback?: (error?: Error) => void, ...rest: unknown[]) => void };
  const send = internals._sendPacket;
  if (typeof send !== 'function') throw new Error('this mqtt.js version cannot defer acknowledgements (no _sendPacket): the server would acknowledge messages before storing them');
  const original = send.bind(client);
  internals._sendPacket = (packet, callback, ...rest) => {
    if (packet.cmd === 'puback') {
      callback?.();
      return;
    }
    original(packet, callback, ...rest);
  };
  return original;
};

const isLiveTopic = (topic: string): boolean => topic.startsWith(`${LIVE_TOPIC_ROOT}/`);

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const createClientTransport = async (options: ClientTransportOptions): Promise<ClientTransport> => {
  const { log, url, broker } = options;
  const external = broker === 'external';
  const clientOptions: IClientOptions = {
    clientId: options.clientId,
    username: options.username,
    password: options.password,
    manualConnect: true,
    keepalive: 30,
    connectTimeout: FIRST_CONNECT_TIMEOUT_MS,
    reconnectPeriod: options.reconnectPeriodMs ?? 1000,
    // A live event is worth nothing late: while disconnected, publishing fails (and the relay delivers locally).
    queueQoSZero: false,
    ...(external
      ? { protocolVersion: 5, clean: false, properties: { sessionExpiryInterval: SESSION_EXPIRY_SECONDS, receiveMaximum: RECEIVE_MAXIMUM } }
      : { protocolVersion: 4, clean: true }),
  };
  const client = mqtt.connect(url, clientOptions);
  const sendPacket = holdAcks(client);

  let handler: ((message: InboundMessage) => void) | undefined;
  let liveHandler: ((topic: string, payload: Buffer) => void) | undefined;
  const early: InboundMessage[] = [];
  let reconnects = 0;
  let pending = 0;
  let closing = false;

  client.on('message', (topic, payload, packet) => {
    // Closing: never settled, so never acknowledged; the broker keeps it for this client id.
    if (closing) return;
    if (isLiveTopic(topic)) {
      liveHandler?.(topic, payload);
      return;
    }
    // mqtt.js opens a new stream per connection and drops what an old one still had queued, so the stream
    // now is the connection that delivered this message. ('connect' is no marker: mqtt.js may emit it after
    // the first messages of the new connection.)
    const delivered = client.stream;
    const messageId = packet.messageId;
    let settled = false;
    pending += 1;
    const message: InboundMessage = {
      topic,
      payload,
      qos: packet.qos,
      settle() {
        if (settled) return;
        settled = true;
        pending -= 1;
        if (packet.qos === 0 || messageId === undefined) return;
        if (delivered !== client.stream || !client.connected) return;
        sendPacket({ cmd: 'puback', messageId });
      },
    };
    if (handler === undefined) early.push(message);
    else handler(message);
  });

  // First connection: the start fails with the broker's answer rather than retrying forever.
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`no answer in ${FIRST_CONNECT_TIMEOUT_MS / 1000} s`)), FIRST_CONNECT_TIMEOUT_MS);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      client.removeListener('connect', connected);
      client.end(true);
      const name = external ? 'MQTT_URL' : "the primary's embedded broker";
      reject(new Error(`cannot connect to the MQTT broker at ${url} (${name}) as ${options.clientId}: ${error.message}`, { cause: error }));
    };
    const connected = (): void => {
      clearTimeout(timer);
      client.removeListener('error', fail);
      resolve();
    };
    client.once('connect', connected);
    client.once('error', fail);
    client.connect();
  });
  log.info({ url, clientId: options.clientId, broker }, 'mqtt: connected to the broker');

  client.on('connect', (connack) => {
    reconnects += 1;
    const resumed = connack.sessionPresent;
    if (external && !resumed) {
      log.warn({ url, clientId: options.clientId }, 'mqtt: reconnected without the previous session: messages the broker held for it are lost; subscribing again');
    } else {
      log.info({ url, clientId: options.clientId, resumed }, 'mqtt: reconnected to the broker');
    }
  });
  client.on('offline', () => {
    if (!closing) log.warn({ url, clientId: options.clientId }, 'mqtt: connection to the broker lost, reconnecting');
  });
  client.on('error', (error) => log.error({ url, clientId: options.clientId, err: reason(error) }, 'mqtt: broker connection error'));

  const subscribe = async (filters: string[], qos: 0 | 1): Promise<void> => {
    try {
      await client.subscribeAsync(filters, { qos });
    } catch (error) {
      throw new Error(`the MQTT broker at ${url} refused the subscription to ${filters.join(', ')} (check the server user's ACL): ${reason(error)}`, {
        cause: error,
      });
    }
  };

  return {
    get connected() {
      return client.connected;
    },
    get reconnects() {
      return reconnects;
    },
    get pending() {
      return pending;
    },
    async start(onMessage) {
      if (!external) throw new Error("a cluster worker takes no device messages: the primary's embedded broker hands them to the primary");
      handler = onMessage;
      for (const message of early.splice(0)) onMessage(message);
      await subscribe(serverSubscriptions(options.shareGroup ?? SERVER_SHARE_GROUP), 1);
    },
    async publish(topic, payload, publishOptions) {
      if (!client.connected) throw new NoBrokerError();
      await client.publishAsync(topic, payload, publishOptions);
    },
    async subscribeLive(onMessage) {
      liveHandler = onMessage;
      await subscribe([LIVE_TOPIC_FILTER], 0);
    },
    disconnectDevice(deviceId) {
      // An external broker checks credentials itself (docs/mqtt.md): ending a connection is its business.
      if (external) return;
      client.publishAsync(DISCONNECT_TOPIC, deviceId, { qos: 1, retain: false }).catch((error: unknown) => {
        log.error({ deviceId, err: reason(error) }, "mqtt: cannot ask the primary's broker to disconnect a device");
      });
    },
    async close() {
      closing = true;
      handler = undefined;
      liveHandler = undefined;
      early.length = 0;
      // A DISCONNECT keeps the persistent session: what was not acknowledged is sent again when this client
      // id returns. Without a connection there is nothing to wait for.
      const ended = client.endAsync(!client.connected).then(() => true);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CLOSE_TIMEOUT_MS);
      });
      const clean = await Promise.race([ended, late]);
      clearTimeout(timer);
      if (!clean) {
        log.warn({ url, clientId: options.clientId }, 'mqtt: the broker did not answer the disconnection in time: connection dropped');
        client.stream.destroy();
      }
    },
  };
};
