import { createHash, timingSafeEqual } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client, type PublishPacket, type Subscription } from 'aedes';
import { MAX_PAYLOAD_BYTES } from '../../src/domain/mqtt/parse';
import { deviceMayPublish, deviceMaySubscribe, isDeviceId, parseTopic, type QoS } from '../../src/domain/mqtt/topics';
import { DEFAULT_MAX_PACKET_BYTES, type BrokerCounters, type EmbeddedBroker, type EmbeddedBrokerOptions, type RefusalReason } from './config';
import type { InboundMessage } from './transport';

/**
 * The embedded MQTT broker (aedes over node:net) with the device identity of docs/mqtt.md: the username
 * is the device Id and the password its secret, checked through `options.authenticate`; a device
 * publishes only on its own telemetry/event/status/ack topics (retained only on status) and subscribes
 * only to its own cmd topic. The server's internal client (`serverCredentials`) may do anything, and its
 * `$share/<group>/<filter>` subscriptions are served as plain `<filter>` ones (aedes has no shared
 * subscriptions; one embedded broker serves one server process, so the group has one member anyway).
 *
 * Every refusal is logged (warn: device, client id, topic; never a password) and counted by reason:
 *   badCredentials   CONNACK "bad username or password" (3.1.1 return code 4)
 *   clientIdDenied   CONNACK "identifier rejected" (2): a client id in use by another username (connected,
 *                    or its persistent session), or starting with the server's username; a device's own
 *                    Id is always its to use (it starts clean if someone else held it)
 *   publishDenied    a publish (or a CONNECT's last will) on a topic the device may not publish on, or
 *                    retained outside status: the client is disconnected (aedes: no PUBACK)
 *   subscribeDenied  SUBACK 0x80 for that filter; the client stays connected
 *   oversized        a device payload over `maxPayloadBytes`: acknowledged (PUBACK) and dropped
 *   packetTooLarge   any packet over `maxPacketBytes` (default 64 KiB), seen while it arrives: connection closed
 *
 * With `onDeviceMessage`, every device message that passes is handed to the server in-process and a
 * QoS 1 publish is acknowledged only once the server settles it (see EmbeddedBrokerOptions).
 *
 * aedes 1.x speaks MQTT 3.1 and 3.1.1 only: an MQTT 5 CONNECT is answered "unacceptable protocol version".
 */

/** Where an oversized publish is redirected to be dropped: `$` topics match no wildcard subscription, and only the server may subscribe to anything. */
const DROP_TOPIC = '$oxygen/dropped';
const SYS_PREFIX = '$SYS';
/** The longest close() waits for buffered writes to leave before ending connections. */
const FLUSH_TIMEOUT_MS = 1000;
const SHARE_PREFIX = '$share/';

/** Connection refusal codes (MQTT 3.1.1 CONNACK return codes; aedes' AuthErrorCode is an ambient const enum). */
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

/** What limitPackets needs of aedes' mqtt-packet parser. */
interface PacketParser {
  parse(chunk: Buffer): number;
  packet?: { length: number };
}

type Identity = { kind: 'server' } | { kind: 'device'; deviceId: string };

const digest = (value: string | Buffer): Buffer => createHash('sha256').update(value).digest();

/** Printable ASCII, at most 80 characters: a client-chosen string made safe for a log line. */
const printable = (value: unknown): string => (typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, '?').slice(0, 80) : String(value));

const refusal = (message: string, returnCode: number): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

const payloadBytes = (payload: PublishPacket['payload']): number => (typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength);

const asBuffer = (payload: PublishPacket['payload']): Buffer =>
  typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.isBuffer(payload) ? payload : Buffer.from(payload);

/** `$share/<group>/<filter>` → `<filter>`; anything else unchanged; a malformed share (no group or filter) → null. */
const unshare = (filter: string): string | null => {
  if (!filter.startsWith(SHARE_PREFIX)) return filter;
  const rest = filter.slice(SHARE_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0 || slash === rest.length - 1) return null;
  return rest.slice(slash + 1);
};

const listenError = (port: number, error: NodeJS.ErrnoException): Error => {
  if (error.code === 'EADDRINUSE') {
    return new Error(
      `MQTT_PORT ${port} is in use (another broker?): set MQTT_PORT to a free port, or MQTT_URL=mqtt://host:port to use that broker instead`,
      { cause: error },
    );
  }
  if (error.code === 'EACCES') {
    return new Error(`MQTT_PORT ${port} cannot be opened (permission denied): set MQTT_PORT to a port above 1023, or MQTT_URL to use an external broker`, {
      cause: error,
    });
  }
  return new Error(`the embedded MQTT broker cannot listen on MQTT_PORT ${port}: ${error.message}`, { cause: error });
};

export const startEmbeddedBroker = async (options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> => {
  const { log, serverCredentials } = options;
  const maxPayloadBytes = options.maxPayloadBytes ?? MAX_PAYLOAD_BYTES;
  const maxPacketBytes = options.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES;
  if (maxPacketBytes <= maxPayloadBytes) throw new RangeError('maxPacketBytes must exceed maxPayloadBytes');
  if (isDeviceId(serverCredentials.username)) throw new RangeError('the server MQTT username must not be a valid device Id');
  if (serverCredentials.password === '') throw new RangeError('the server MQTT password must not be empty');
  const serverUsername = serverCredentials.username;
  const serverPasswordDigest = digest(serverCredentials.password);

  const counters: BrokerCounters = { badCredentials: 0, clientIdDenied: 0, publishDenied: 0, subscribeDenied: 0, oversized: 0, packetTooLarge: 0 };
  const refuse = (reason: RefusalReason, fields: Record<string, unknown>, message: string) => {
    counters[reason] += 1;
    log.warn({ reason, ...fields }, message);
  };

  const identities = new WeakMap<Client, Identity>();
  /** The CONNECT's last will, kept by preConnect for authenticate (which does not receive it). */
  const wills = new WeakMap<Client, { topic: string; retain: boolean }>();
  /**
   * Client id → the username using it (while connected) or owning its persistent session (until a clean
   * connection of the same username ends it): nobody else may take the id over, resume the session or
   * receive its queued messages.
   */
  const sessionOwners = new Map<string, { username: string; client: Client }>();
  /** Device Id → its connected clients, for disconnectDevice. */
  const deviceClients = new Map<string, Set<Client>>();

  const isServer = (username: string | undefined, password: Buffer | undefined): boolean => {
    if (username !== serverUsername || password === undefined) return false;
    return timingSafeEqual(digest(password), serverPasswordDigest);
  };

  /**
   * Why this username may not use this client id, or null. A device always may use its own Id (docs/mqtt.md
   * recommends it): if someone else held that id, preConnect has made this connection start clean, so it
   * does not inherit their session.
   */
  const clientIdProblem = (clientId: string, username: string, identity: Identity): string | null => {
    if (identity.kind === 'device') {
      if (clientId === identity.deviceId) return null;
      if (clientId.startsWith(serverUsername)) return "the server's client id";
    }
    const owner = sessionOwners.get(clientId);
    if (owner !== undefined && owner.username !== username) return "another client's session";
    return null;
  };

  const mayPublish = (identity: Identity | undefined, packet: { topic: string; retain: boolean }): boolean => {
    if (packet.topic.startsWith(SYS_PREFIX)) return false;
    if (identity === undefined) return false;
    if (identity.kind === 'server') return true;
    if (!deviceMayPublish(identity.deviceId, packet.topic)) return false;
    return !packet.retain || parseTopic(packet.topic)?.kind === 'status';
  };

  /**
   * Gives a device message to the server. aedes writes a QoS 1 PUBACK (QoS 2: PUBREC) only after
   * authorizePublish calls back (lib/handlers/publish.js runs authorizePublish, then enqueuePublish, which
   * writes it), so holding `done` until settle holds the acknowledgement. The client's next packets wait
   * meanwhile (aedes handles one read chunk at a time), which only paces that one device.
   */
  const handOver = (onDeviceMessage: (message: InboundMessage) => void, packet: PublishPacket, done: (error: Error | null) => void): void => {
    const held = packet.qos > 0;
    let settled = false;
    const message: InboundMessage = {
      topic: packet.topic,
      payload: asBuffer(packet.payload),
      qos: packet.qos as QoS,
      settle() {
        if (settled) return;
        settled = true;
        if (held) done(null);
      },
    };
    try {
      onDeviceMessage(message);
    } catch (error) {
      log.error({ err: error, topic: printable(packet.topic) }, 'mqtt: the server failed to take a device message');
      if (!settled) {
        settled = true;
        // No PUBACK: aedes ends the connection and the device sends the message again after reconnecting.
        done(new Error('the server could not take the message'));
      }
      return;
    }
    if (!held) done(null);
  };

  const broker = new Aedes({
    preConnect(client, packet, done) {
      // A device taking back its own Id as client id from another username: never resume their session.
      const owner = sessionOwners.get(packet.clientId);
      if (packet.username === packet.clientId && owner !== undefined && owner.username !== packet.username) packet.clean = true;
      if (packet.will) wills.set(client, { topic: packet.will.topic, retain: packet.will.retain === true });
      done(null, true);
    },

    authenticate(client, rawUsername, password, done) {
      const username: string | undefined = rawUsername;
      const clientId = client.id;
      const admit = (identity: Identity, name: string) => {
        const problem = clientIdProblem(clientId, name, identity);
        if (problem !== null) {
          refuse('clientIdDenied', { username: printable(name), clientId: printable(clientId) }, `mqtt: client id refused (${problem})`);
          done(refusal('identifier rejected', IDENTIFIER_REJECTED), null);
          return;
        }
        const will = wills.get(client);
        wills.delete(client);
        if (will !== undefined && !mayPublish(identity, will)) {
          refuse(
            'publishDenied',
            { deviceId: printable(name), clientId: printable(clientId), topic: printable(will.topic), retain: will.retain, will: true },
            'mqtt: last will refused',
          );
          done(refusal('not authorized', NOT_AUTHORIZED), null);
          return;
        }
        identities.set(client, identity);
        sessionOwners.set(clientId, { username: name, client });
        if (identity.kind === 'device') {
          const connected = deviceClients.get(identity.deviceId) ?? new Set<Client>();
          connected.add(client);
          deviceClients.set(identity.deviceId, connected);
        }
        log.debug({ username: name, clientId: printable(clientId) }, 'mqtt: client connected');
        done(null, true);
      };
      const badCredentials = (why: string) => {
        refuse('badCredentials', { username: printable(username), clientId: printable(clientId) }, `mqtt: connection refused (${why})`);
        done(refusal('bad username or password', BAD_USERNAME_OR_PASSWORD), null);
      };

      if (username === serverUsername) {
        if (isServer(username, password)) admit({ kind: 'server' }, serverUsername);
        else badCredentials('wrong server password');
        return;
      }
      if (!isDeviceId(username)) return badCredentials(username === undefined ? 'no username' : 'username is not a device Id');
      if (password === undefined || password.length === 0) return badCredentials('no password');
      options.authenticate(username, password.toString('utf8')).then(
        (ok) => (ok ? admit({ kind: 'device', deviceId: username }, username) : badCredentials('unknown device or wrong secret')),
        (error: unknown) => {
          log.error({ err: error, deviceId: username }, 'mqtt: cannot check device credentials');
          done(refusal('server unavailable', SERVER_UNAVAILABLE), null);
        },
      );
    },

    authorizePublish(client, packet, done) {
      const identity = client === null ? undefined : identities.get(client);
      const clientId = client === null ? null : printable(client.id);
      if (!mayPublish(identity, packet)) {
        const who = identity?.kind === 'device' ? identity.deviceId : (identity?.kind ?? null);
        refuse('publishDenied', { deviceId: who, clientId, topic: printable(packet.topic), retain: packet.retain }, 'mqtt: publish refused');
        done(new Error('not authorized'));
        return;
      }
      if (identity?.kind === 'device') {
        const bytes = payloadBytes(packet.payload);
        if (bytes > maxPayloadBytes) {
          refuse('oversized', { deviceId: identity.deviceId, clientId, topic: packet.topic, bytes }, 'mqtt: oversized payload dropped');
          // Acknowledged (the device must not resend it) but delivered nowhere and never retained.
          packet.topic = DROP_TOPIC;
          packet.payload = Buffer.alloc(0);
          packet.retain = false;
        } else if (options.onDeviceMessage !== undefined) {
          handOver(options.onDeviceMessage, packet, done);
          return;
        }
      }
      done(null);
    },

    // Defence in depth: whatever a session holds (queued or restored), a device receives only its own cmd topic.
    authorizeForward(client, packet) {
      const identity = identities.get(client);
      if (identity?.kind === 'server') return packet;
      return identity?.kind === 'device' && deviceMaySubscribe(identity.deviceId, packet.topic) ? packet : null;
    },

    authorizeSubscribe(client, subscription: Subscription, done) {
      const identity = identities.get(client);
      if (identity?.kind === 'server') {
        const topic = unshare(subscription.topic);
        if (topic !== null) {
          subscription.topic = topic;
          done(null, subscription);
          return;
        }
      } else if (identity?.kind === 'device' && deviceMaySubscribe(identity.deviceId, subscription.topic)) {
        done(null, subscription);
        return;
      }
      const who = identity?.kind === 'device' ? identity.deviceId : (identity?.kind ?? null);
      refuse('subscribeDenied', { deviceId: who, clientId: printable(client.id), topic: printable(subscription.topic) }, 'mqtt: subscription refused');
      done(null, null);
    },
  });

  const forget = (client: Client): void => {
    const identity = identities.get(client);
    if (identity?.kind !== 'device') return;
    const connected = deviceClients.get(identity.deviceId);
    connected?.delete(client);
    if (connected?.size === 0) deviceClients.delete(identity.deviceId);
  };
  broker.on('clientDisconnect', (client) => {
    // A clean session ends with its connection; a persistent one stays its username's.
    if (client.clean && sessionOwners.get(client.id)?.client === client) sessionOwners.delete(client.id);
    log.debug({ clientId: printable(client.id) }, 'mqtt: client disconnected');
  });
  broker.on('clientError', (client, error) => log.debug({ clientId: printable(client.id), err: error.message }, 'mqtt: client error'));
  broker.on('connectionError', (_client, error) => log.debug({ err: error.message }, 'mqtt: connection error'));
  // Persistence failures (not in aedes' typings): logged, never an unhandled 'error' event.
  (broker as EventEmitter).on('error', (error: Error) => log.error({ err: error }, 'mqtt: broker error'));

  await broker.listen();

  /**
   * aedes feeds each chunk read from the socket to its mqtt-packet parser, which buffers a packet until it
   * is complete. Checking the packet length the parser has read after each chunk closes the connection
   * before more than one chunk past the limit is held. `_parser` is aedes' own (lib/client.js): without it
   * (another aedes version) the limit is off, and the start says so.
   */
  const limitPackets = (client: Client, socket: Socket): boolean => {
    const parser = (client as unknown as { _parser?: PacketParser })._parser;
    if (parser === undefined || typeof parser.parse !== 'function' || parser.packet === undefined) return false;
    const parse = parser.parse.bind(parser);
    parser.parse = (chunk) => {
      const left = parse(chunk);
      const length = parser.packet?.length ?? -1;
      if (length > maxPacketBytes && !socket.destroyed) {
        const identity = identities.get(client);
        const who = identity?.kind === 'device' ? identity.deviceId : (identity?.kind ?? null);
        refuse('packetTooLarge', { deviceId: who, clientId: client.id === null ? null : printable(client.id), bytes: length }, 'mqtt: packet too large, connection closed');
        socket.destroy();
      }
      return left;
    };
    return true;
  };

  const sockets = new Set<Socket>();
  let packetLimitWarned = false;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const client = broker.handle(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      forget(client);
    });
    if (!limitPackets(client, socket) && !packetLimitWarned) {
      packetLimitWarned = true;
      log.warn('mqtt: cannot limit the packet size with this aedes version');
    }
  });

  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => reject(listenError(options.port, error));
      server.once('error', onError);
      server.listen({ port: options.port, host: options.host }, () => {
        server.off('error', onError);
        resolve();
      });
    });
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  server.on('error', (error) => log.error({ err: error }, 'mqtt: listener error'));

  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  log.info({ port, host: options.host ?? null }, 'mqtt: embedded broker listening');

  const publish = (topic: string, payload: string | Buffer, publishOptions: { qos: QoS; retain: boolean }): Promise<void> =>
    new Promise((resolve, reject) => {
      const packet: PublishPacket = { cmd: 'publish', topic, payload: asBuffer(payload), qos: publishOptions.qos, retain: publishOptions.retain, dup: false };
      broker.publish(packet, (error) => (error ? reject(error) : resolve()));
    });

  const subscribe = (filter: string, onMessage: (topic: string, payload: Buffer) => void): Promise<() => void> =>
    new Promise((resolve) => {
      const deliver = (packet: AedesPublishPacket, callback: () => void): void => {
        try {
          onMessage(packet.topic, asBuffer(packet.payload));
        } catch (error) {
          log.error({ err: error, topic: printable(packet.topic) }, 'mqtt: an in-process subscriber failed');
        }
        callback();
      };
      broker.subscribe(filter, deliver, () => resolve(() => broker.unsubscribe(filter, deliver, () => undefined)));
    });

  const disconnectDevice = (deviceId: string): number => {
    const connected = [...(deviceClients.get(deviceId) ?? [])];
    for (const client of connected) {
      log.info({ deviceId, clientId: printable(client.id) }, 'mqtt: device disconnected by the server');
      client.close();
    }
    return connected.length;
  };

  /**
   * aedes ends connections with destroy(), which drops what is still buffered; mqtt-packet corks a socket
   * and writes on the next tick. So before closing, give the acknowledgements just settled (the server's
   * last batch) their turn and a moment to leave, so a device is not left resending what was stored.
   */
  const flushWrites = async (): Promise<void> => {
    await new Promise((resolve) => setImmediate(resolve));
    const deadline = Date.now() + FLUSH_TIMEOUT_MS;
    for (const socket of sockets) {
      while (socket.writableLength > 0 && !socket.destroyed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  };

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const listenerClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      await flushWrites();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      // Connections that never completed CONNECT are not aedes clients: end them too.
      for (const socket of sockets) socket.destroy();
      await listenerClosed;
      sessionOwners.clear();
      deviceClients.clear();
    })();
    return closing;
  };

  return {
    port,
    counters,
    get connectedClients() {
      return broker.connectedClients;
    },
    publish,
    subscribe,
    disconnectDevice,
    close,
  };
};
