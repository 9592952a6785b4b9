import type { Aedes, AedesPublishPacket, PublishPacket } from 'aedes';
import type { BrokerLog, EmbeddedBroker } from '../config';
import { asBuffer } from './device-publish';
import { printable } from './refusals';

/**
 * The server's own publishing and subscribing inside the process (commands, the live relay, the cluster
 * workers' disconnect requests): no rights check, no size limit, no network.
 */
export const createServerRelay = (broker: Aedes, log: BrokerLog): Pick<EmbeddedBroker, 'publish' | 'subscribe'> => ({
  publish: (topic, payload, publishOptions) =>
    new Promise((resolve, reject) => {
      const packet: PublishPacket = { cmd: 'publish', topic, payload: asBuffer(payload), qos: publishOptions.qos, retain: publishOptions.retain, dup: false };
      broker.publish(packet, (error) => (error ? reject(error) : resolve()));
    }),

  subscribe: (filter, onMessage) =>
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
    }),
});
