import type { AedesOptions, PublishPacket } from 'aedes';
import type { QoS } from '../../../src/domain/mqtt/topics';
import type { BrokerLog } from '../config';
import type { InboundMessage } from '../transport';
import { printable, who, type Refuse } from './refusals';
import type { ClientSessions } from './sessions';
import { mayPublish } from './topic-rights';

/** Where an oversized publish is redirected to be dropped: `$` topics match no wildcard subscription, and only the server may subscribe to anything. */
const DROP_TOPIC = '$oxygen/dropped';

const payloadBytes = (payload: PublishPacket['payload']): number => (typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength);

export const asBuffer = (payload: PublishPacket['payload']): Buffer =>
  typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.isBuffer(payload) ? payload : Buffer.from(payload);

/**
 * Gives a device message to the server. aedes writes a QoS 1 PUBACK (QoS 2: PUBREC) only after
 * authorizePublish calls back (lib/handlers/publish.js runs authorizePublish, then enqueuePublish, which
 * writes it), so holding `done` until settle holds the acknowledgement. The client's next packets wait
 * meanwhile (aedes handles one read chunk at a time), which only paces that one device.
 */
const handOver = (
  log: BrokerLog,
  onDeviceMessage: (message: InboundMessage) => void,
  packet: PublishPacket,
  done: (error: Error | null) => void,
): void => {
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

interface DevicePublishParts {
  log: BrokerLog;
  sessions: ClientSessions;
  refuse: Refuse;
  maxPayloadBytes: number;
  onDeviceMessage: ((message: InboundMessage) => void) | undefined;
}

/**
 * Every publish, on the hot path: refused (publishDenied: the client is disconnected, no PUBACK) outside
 * the topic rights; a device payload over `maxPayloadBytes` acknowledged and dropped (oversized); any
 * other device message handed to the server, its QoS 1 acknowledgement held until the server settles it.
 */
export const createPublishAuthorization = ({
  log,
  sessions: { identities },
  refuse,
  maxPayloadBytes,
  onDeviceMessage,
}: DevicePublishParts): NonNullable<AedesOptions['authorizePublish']> =>
  function authorizePublish(client, packet, done) {
    const identity = client === null ? undefined : identities.get(client);
    const clientId = client === null ? null : printable(client.id);
    if (!mayPublish(identity, packet)) {
      refuse('publishDenied', { deviceId: who(identity), clientId, topic: printable(packet.topic), retain: packet.retain }, 'mqtt: publish refused');
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
      } else if (onDeviceMessage !== undefined) {
        handOver(log, onDeviceMessage, packet, done);
        return;
      }
    }
    done(null);
  };
