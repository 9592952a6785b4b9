import type { EventEmitter } from 'node:events';
import { Aedes } from 'aedes';
import { MAX_PAYLOAD_BYTES } from '../../src/domain/mqtt/parse';
import { isDeviceId } from '../../src/domain/mqtt/topics';
import { createAuthentication } from './broker/authentication';
import { createPublishAuthorization } from './broker/device-publish';
import { createClientLimits } from './broker/limits';
import { closeListeners, listen, type BrokerListener, type ListenerParts } from './broker/listener';
import { limitPackets } from './broker/packet-limit';
import { createRefusals, printable } from './broker/refusals';
import { createServerRelay } from './broker/server-relay';
import { createClientSessions } from './broker/sessions';
import { createSubscriptionRights } from './broker/topic-rights';
import { DEFAULT_BROKER_LIMITS } from '../config';
import { DEFAULT_MAX_PACKET_BYTES, type EmbeddedBroker, type EmbeddedBrokerOptions } from './config';

/**
 * The embedded MQTT broker (aedes over node:net) with the device identity of docs/mqtt.md: the username
 * is the device Id and the password its secret, checked through `options.authenticate`; a device
 * publishes only on its own telemetry/event/status/ack topics (retained only on status) and subscribes
 * only to its own cmd topic. The server's internal client (`serverCredentials`) may do anything, and its
 * `$share/<group>/<filter>` subscriptions are served as plain `<filter>` ones.
 *
 * Composed here from its parts in broker/: who may connect (authentication.ts) and the book of clients
 * and sessions (sessions.ts); where a client may publish and what it may receive (topic-rights.ts); each
 * publish on the hot path, a device's QoS 1 acknowledgement held until the server settles it
 * (device-publish.ts); the packet size limit (packet-limit.ts); the server's own in-process publishing
 * and subscribing (server-relay.ts); what one address may cost it: connections per minute and refused
 * sign-ins (limits.ts); the listeners, plain TCP and TLS, and the flush on close (listener.ts).
 *
 * Every refusal is logged (warn: device, client id, topic; never a password) and counted by reason
 * (refusals.ts):
 *   badCredentials   CONNACK "bad username or password" (3.1.1 return code 4)
 *   clientIdDenied   CONNACK "identifier rejected" (2): a client id in use by another username (connected,
 *                    or its persistent session), or starting with the server's username; a device's own
 *                    Id is always its to use (it starts clean if someone else held it)
 *   publishDenied    a publish (or a CONNECT's last will) on a topic the device may not publish on, or
 *                    retained outside status: the client is disconnected (aedes: no PUBACK)
 *   subscribeDenied  SUBACK 0x80 for that filter; the client stays connected
 *   oversized        a device payload over `maxPayloadBytes`: acknowledged (PUBACK) and dropped
 *   packetTooLarge   any packet over `maxPacketBytes` (default 64 KiB), seen while it arrives: connection closed
 *   addressRateLimited    a new connection over its address's rate: closed before it is read
 *   signInThrottled       CONNACK "server unavailable" (3) unchecked: its address and username failed too often
 *   deviceConnectionLimit CONNACK "server unavailable" (3): the device holds `connectionsPerDevice` connections already
 *
 * With `onDeviceMessage`, every device message that passes is handed to the server in-process and a
 * QoS 1 publish is acknowledged only once the server settles it (see EmbeddedBrokerOptions).
 *
 * aedes 1.x speaks MQTT 3.1 and 3.1.1 only: an MQTT 5 CONNECT is answered "unacceptable protocol version".
 */
export const startEmbeddedBroker = async (options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> => {
  const { log, serverCredentials } = options;
  const maxPayloadBytes = options.maxPayloadBytes ?? MAX_PAYLOAD_BYTES;
  const maxPacketBytes = options.maxPacketBytes ?? DEFAULT_MAX_PACKET_BYTES;
  if (maxPacketBytes <= maxPayloadBytes) throw new RangeError('maxPacketBytes must exceed maxPayloadBytes');
  if (isDeviceId(serverCredentials.username)) throw new RangeError('the server MQTT username must not be a valid device Id');
  if (serverCredentials.password === '') throw new RangeError('the server MQTT password must not be empty');

  if (options.plain === false && options.tls === undefined) throw new RangeError('the broker needs a plain or a TLS listener');
  const limits = { ...DEFAULT_BROKER_LIMITS, ...options.limits };

  const { counters, refuse } = createRefusals(log);
  const sessions = createClientSessions(log, serverCredentials.username);
  const clientLimits = createClientLimits(limits);
  const broker = new Aedes({
    ...createAuthentication({
      log,
      serverCredentials,
      authenticateDevice: options.authenticate,
      sessions,
      refuse,
      limits: clientLimits,
      connectionsPerDevice: limits.connectionsPerDevice,
    }),
    authorizePublish: createPublishAuthorization({ log, sessions, refuse, maxPayloadBytes, onDeviceMessage: options.onDeviceMessage }),
    ...createSubscriptionRights(sessions, refuse),
  });

  broker.on('clientDisconnect', (client) => {
    sessions.disconnected(client);
    log.debug({ clientId: printable(client.id) }, 'mqtt: client disconnected');
  });
  broker.on('clientError', (client, error) => log.debug({ clientId: printable(client.id), err: error.message }, 'mqtt: client error'));
  broker.on('connectionError', (_client, error) => log.debug({ err: error.message }, 'mqtt: connection error'));
  // Persistence failures (not in aedes' typings): logged, never an unhandled 'error' event.
  (broker as EventEmitter).on('error', (error: Error) => log.error({ err: error }, 'mqtt: broker error'));

  await broker.listen();
  const parts: Omit<ListenerParts, 'port' | 'host'> = {
    log,
    accept(socket) {
      if (clientLimits.acceptSocket(socket)) return true;
      refuse('addressRateLimited', { address: printable(socket.remoteAddress) }, 'mqtt: too many connections from this address, closed');
      return false;
    },
    connected(client, socket) {
      clientLimits.remember(client, socket);
      return limitPackets(client, socket, maxPacketBytes, sessions, refuse);
    },
    closed: (client) => sessions.forget(client),
  };
  const listeners: BrokerListener[] = [];
  const opened = async (listening: Promise<BrokerListener>): Promise<BrokerListener> => {
    const listener = await listening;
    listeners.push(listener);
    return listener;
  };
  let plain: BrokerListener | undefined;
  let secure: BrokerListener | undefined;
  try {
    if (options.plain !== false) plain = await opened(listen(broker, { ...parts, port: options.port, host: options.host }));
    const { tls } = options;
    if (tls !== undefined) secure = await opened(listen(broker, { ...parts, port: tls.port, host: tls.host ?? options.host, tls }));
  } catch (error) {
    await closeListeners(broker, listeners);
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await closeListeners(broker, listeners);
      sessions.clear();
    })();
    return closing;
  };

  return {
    port: plain?.port ?? null,
    tlsPort: secure?.port ?? null,
    counters,
    get connectedClients() {
      return broker.connectedClients;
    },
    ...createServerRelay(broker, log),
    disconnectDevice: (deviceId) => sessions.disconnectDevice(deviceId),
    close,
  };
};
