import type { Command } from '../../src/domain/mqtt/payloads';

/**
 * What the services need of the broker: send a command to a device, end a device's
 * connection. The MQTT plugin puts the real one in the context; until then (or without a broker, as in
 * tests that do not start one) `unlinked` refuses to send and has nobody to disconnect.
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
