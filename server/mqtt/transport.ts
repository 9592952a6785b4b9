import type { QoS } from '../../src/domain/mqtt/topics';

/**
 * How the server meets its broker, whichever it is: the embedded aedes broker in this process,
 * or an external one (MQTT_URL) reached with mqtt.js through shared subscriptions.
 */

/** A device's message as it reaches the server. */
export interface InboundMessage {
  topic: string;
  payload: Buffer;
  qos: QoS;
  /**
   * Call exactly once, when the message is handled for good (its batch committed, or it was dropped):
   * only then is a QoS 1 message acknowledged (the embedded broker's PUBACK to the device, or the
   * server's PUBACK to the external broker), so a crash before it loses nothing acknowledged.
   */
  settle(): void;
}

export interface MqttTransport {
  /** Starts handing device messages (telemetry, event, status, ack) to `onMessage`. */
  start(onMessage: (message: InboundMessage) => void): Promise<void>;
  /** Publishes on a topic (commands, the live relay). */
  publish(topic: string, payload: string, options: { qos: QoS; retain: boolean }): Promise<void>;
  /** Receives the live relay's messages (`oxygen-live/+`, not shared: every server process gets each). */
  subscribeLive(onMessage: (topic: string, payload: Buffer) => void): Promise<void>;
  /** Ends a device's connection (its secret was rotated or it was removed); the embedded broker only. */
  disconnectDevice(deviceId: string): void;
  close(): Promise<void>;
}
