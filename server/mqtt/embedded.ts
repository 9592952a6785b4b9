import { LIVE_TOPIC_FILTER } from '../../src/domain/live';
import { isDeviceId } from '../../src/domain/mqtt/topics';
import { startEmbeddedBroker } from './broker';
import { DISCONNECT_TOPIC, type EmbeddedBroker, type EmbeddedBrokerOptions } from './config';
import type { InboundMessage, MqttTransport } from './transport';

/**
 * The transport of a server that runs the embedded broker (no MQTT_URL): everything happens inside the
 * process. Device messages come from the broker's authorizePublish hook, and a QoS 1 publish is
 * acknowledged to the device only when the server settles it; commands and the live relay are published
 * into the broker; the live relay and the cluster workers' disconnect requests (DISCONNECT_TOPIC) are
 * received through in-process subscriptions.
 */
export interface EmbeddedTransport extends MqttTransport {
  readonly broker: EmbeddedBroker;
  /** Device messages handed to `onMessage` and not settled yet. */
  readonly pending: number;
}

export type EmbeddedTransportOptions = Omit<EmbeddedBrokerOptions, 'onDeviceMessage'>;

/** Starts the broker (it listens at once: a taken MQTT_PORT fails here); device messages wait for `start`. */
export const createEmbeddedTransport = async (options: EmbeddedTransportOptions): Promise<EmbeddedTransport> => {
  let handler: ((message: InboundMessage) => void) | undefined;
  const early: InboundMessage[] = [];
  let pending = 0;
  let closed = false;

  const counted = (message: InboundMessage): InboundMessage => {
    pending += 1;
    let settled = false;
    return {
      topic: message.topic,
      payload: message.payload,
      qos: message.qos,
      settle() {
        if (settled) return;
        settled = true;
        pending -= 1;
        message.settle();
      },
    };
  };

  const broker = await startEmbeddedBroker({
    ...options,
    onDeviceMessage(message) {
      // Closing (the last wills of the connections it ends): never settled, so never acknowledged.
      if (closed) return;
      const tracked = counted(message);
      if (handler === undefined) early.push(tracked);
      else handler(tracked);
    },
  });

  const stopDisconnects = await broker.subscribe(DISCONNECT_TOPIC, (_topic, payload) => {
    const deviceId = payload.toString('utf8');
    if (isDeviceId(deviceId)) broker.disconnectDevice(deviceId);
  });
  let stopLive: (() => void) | undefined;

  return {
    broker,
    get pending() {
      return pending;
    },
    async start(onMessage) {
      handler = onMessage;
      for (const message of early.splice(0)) onMessage(message);
    },
    publish: (topic, payload, publishOptions) => broker.publish(topic, payload, publishOptions),
    async subscribeLive(onMessage) {
      stopLive = await broker.subscribe(LIVE_TOPIC_FILTER, onMessage);
    },
    disconnectDevice(deviceId) {
      broker.disconnectDevice(deviceId);
    },
    async close() {
      closed = true;
      stopDisconnects();
      stopLive?.();
      // Messages never settled are never acknowledged: their devices send them again after reconnecting.
      early.length = 0;
      await broker.close();
    },
  };
};
