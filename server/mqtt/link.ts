import fp from 'fastify-plugin';
import type { Command } from '../../src/domain/mqtt/payloads';

/**
 * What the services need of the broker: send a command to a device, end a device's
 * connection. Without a broker (tests that start none) `unlinked` refuses to send and has nobody to disconnect.
 */
export interface DeviceLink {
  /** Publishes `command` on `oc/{deviceId}/cmd` (QoS 1); rejects when no broker is connected. */
  sendCommand(deviceId: string, command: Command): Promise<void>;
  /** Ends the device's MQTT connection, if it has one (its secret was rotated, or it was removed). */
  disconnectDevice(deviceId: string): void;
}

export class NoBrokerError extends Error {
  constructor() {
    super('no MQTT broker is connected');
    this.name = 'NoBrokerError';
  }
}

export const unlinked: DeviceLink = {
  sendCommand: () => Promise.reject(new NoBrokerError()),
  disconnectDevice: () => undefined,
};

/**
 * The app's one device link: a stable object the services hold for the app's whole life (in ctx), which
 * the MQTT plugin connects to its transport once that is open and lets go of when it closes. Until then,
 * and in an app without a broker, it is `unlinked`.
 */
export interface AppLink extends DeviceLink {
  connect(to: DeviceLink): void;
  disconnect(): void;
}

const createAppLink = (): AppLink => {
  let current = unlinked;
  return {
    sendCommand: (deviceId, command) => current.sendCommand(deviceId, command),
    disconnectDevice: (deviceId) => current.disconnectDevice(deviceId),
    connect(to) {
      current = to;
    },
    disconnect() {
      current = unlinked;
    },
  };
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The device link (ctx.link is the same object); connected by the MQTT plugin. */
    link: AppLink;
  }
}

/** Decorates `link`: the device link, unlinked until a broker transport connects it. */
export const deviceLinkPlugin = fp(
  async (app) => {
    app.decorate('link', createAppLink());
  },
  { name: 'oxygen-device-link', fastify: '5.x' },
);
