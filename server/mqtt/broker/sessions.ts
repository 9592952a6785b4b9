import type { Client, ConnectPacket } from 'aedes';
import type { BrokerLog } from '../config';
import { printable, type Identity } from './refusals';

/** A CONNECT's last will, as the topic rights judge it. */
interface Will {
  topic: string;
  retain: boolean;
}

/**
 * The broker's book of clients: who each connected client is, which username owns which client id, and
 * each device's connections. Read by every publish (`identities`), written on connect and disconnect.
 */
export interface ClientSessions {
  /** Who each authenticated client is; a client absent here has not authenticated. */
  readonly identities: WeakMap<Client, Identity>;
  /** On CONNECT, before authentication: keeps the last will, and makes a device taking back its own Id start clean. */
  connecting(client: Client, packet: ConnectPacket): void;
  /** The last will kept for this client (once: it is forgotten here). */
  takeWill(client: Client): Will | undefined;
  /**
   * Why this username may not use this client id, or null. A device always may use its own Id (docs/mqtt.md
   * recommends it): if someone else held that id, `connecting` has made this connection start clean, so it
   * does not inherit their session.
   */
  clientIdProblem(clientId: string, username: string, identity: Identity): string | null;
  /** The client has authenticated as `identity` under `username`. */
  admit(client: Client, identity: Identity, username: string): void;
  /** aedes' clientDisconnect: a clean session ends with its connection; a persistent one stays its username's. */
  disconnected(client: Client): void;
  /** The client's socket has closed: it is no longer one of its device's connections. */
  forget(client: Client): void;
  /** Closes every connection of that device; answers how many there were. */
  disconnectDevice(deviceId: string): number;
  /** The device's connections, but one under `clientId`: aedes closes that one when a client of the same id connects. */
  connectionsOf(deviceId: string, clientId: string): number;
  clear(): void;
}

export const createClientSessions = (log: BrokerLog, serverUsername: string): ClientSessions => {
  const identities = new WeakMap<Client, Identity>();
  /** The CONNECT's last will, kept by `connecting` for authenticate (which does not receive it). */
  const wills = new WeakMap<Client, Will>();
  /**
   * Client id → the username using it (while connected) or owning its persistent session (until a clean
   * connection of the same username ends it): nobody else may take the id over, resume the session or
   * receive its queued messages.
   */
  const sessionOwners = new Map<string, { username: string; client: Client }>();
  /** Device Id → its connected clients, for disconnectDevice. */
  const deviceClients = new Map<string, Set<Client>>();

  return {
    identities,
    connecting(client, packet) {
      // A device taking back its own Id as client id from another username: never resume their session.
      const owner = sessionOwners.get(packet.clientId);
      if (packet.username === packet.clientId && owner !== undefined && owner.username !== packet.username) packet.clean = true;
      if (packet.will) wills.set(client, { topic: packet.will.topic, retain: packet.will.retain === true });
    },
    takeWill(client) {
      const will = wills.get(client);
      wills.delete(client);
      return will;
    },
    clientIdProblem(clientId, username, identity) {
      if (identity.kind === 'device') {
        if (clientId === identity.deviceId) return null;
        if (clientId.startsWith(serverUsername)) return "the server's client id";
      }
      const owner = sessionOwners.get(clientId);
      if (owner !== undefined && owner.username !== username) return "another client's session";
      return null;
    },
    admit(client, identity, username) {
      identities.set(client, identity);
      sessionOwners.set(client.id, { username, client });
      if (identity.kind === 'device') {
        const connected = deviceClients.get(identity.deviceId) ?? new Set<Client>();
        connected.add(client);
        deviceClients.set(identity.deviceId, connected);
      }
    },
    disconnected(client) {
      if (client.clean && sessionOwners.get(client.id)?.client === client) sessionOwners.delete(client.id);
    },
    forget(client) {
      const identity = identities.get(client);
      if (identity?.kind !== 'device') return;
      const connected = deviceClients.get(identity.deviceId);
      connected?.delete(client);
      if (connected?.size === 0) deviceClients.delete(identity.deviceId);
    },
    disconnectDevice(deviceId) {
      const connected = [...(deviceClients.get(deviceId) ?? [])];
      for (const client of connected) {
        log.info({ deviceId, clientId: printable(client.id) }, 'mqtt: device disconnected by the server');
        client.close();
      }
      return connected.length;
    },
    connectionsOf(deviceId, clientId) {
      let count = 0;
      for (const client of deviceClients.get(deviceId) ?? []) if (client.id !== clientId) count += 1;
      return count;
    },
    clear() {
      sessionOwners.clear();
      deviceClients.clear();
    },
  };
};
