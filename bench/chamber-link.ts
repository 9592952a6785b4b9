import net from 'node:net';
import { lastWillFor } from '../src/domain/mqtt/payloads';

/**
 * A benchmark chamber's MQTT 3.1.1 connection on a bare socket: what a chamber says on the wire as
 * docs/mqtt.md has it (client id and username its Id, password its secret, clean session off, keepalive
 * 60 s, last will `offline` QoS 1 retained), and QoS 1 publishes answered by PUBACK. Nothing else: no
 * subscriptions, no reconnection, no store of unacknowledged packets.
 *
 * Why not mqtt.js: the chambers are simulated on the server's own two cores, so every microsecond they
 * spend is taken from the server being measured. One mqtt.js client a chamber took 0.40-0.46 of a core
 * at 10,250 readings a second (about 45 µs a publish), this about 25 µs, of which the reading's JSON and
 * its packet take under 2 (docs/performance.md, "The chambers on a bare socket"). Real chambers are other
 * machines.
 */

export interface ChamberLink {
  /** A QoS 1 PUBLISH; `onAck` runs when its PUBACK arrives, or with an error when the connection ends first. */
  publish: (topic: string, payload: string, options?: { retain?: boolean; onAck?: (error?: Error) => void }) => void;
  /** Ends the connection gracefully (DISCONNECT: the broker publishes no will). */
  end: () => Promise<void>;
}

const KEEPALIVE_SECONDS = 60;
const CONNECT_TIMEOUT_MS = 30_000;

const PACKET = { connect: 1, connack: 2, publish: 3, puback: 4, pingreq: 12, disconnect: 14 } as const;
const PINGREQ = Buffer.from([PACKET.pingreq << 4, 0]);
const DISCONNECT = Buffer.from([PACKET.disconnect << 4, 0]);
const EMPTY = Buffer.alloc(0);

/** MQTT's variable byte integer (a packet's remaining length). */
const remainingLength = (length: number): Buffer => {
  const bytes: number[] = [];
  let rest = length;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
};

/** A UTF-8 string or binary field: its length in two bytes, then its bytes. */
const field = (value: string | Buffer): Buffer => {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
};

const packet = (firstByte: number, body: Buffer): Buffer => Buffer.concat([Buffer.from([firstByte]), remainingLength(body.length), body]);

/** CONNECT of MQTT 3.1.1 (protocol level 4) with the chamber's credentials and will. */
export const connectPacket = (id: string, secret: string): Buffer => {
  const will = lastWillFor(id);
  // username, password, will retain, will QoS, will flag; clean session off
  const flags = 0x80 | 0x40 | (will.retain ? 0x20 : 0) | (will.qos << 3) | 0x04;
  const keepalive = Buffer.alloc(2);
  keepalive.writeUInt16BE(KEEPALIVE_SECONDS);
  const body = Buffer.concat([field('MQTT'), Buffer.from([4, flags]), keepalive, field(id), field(will.topic), field(will.payload), field(id), field(secret)]);
  return packet(PACKET.connect << 4, body);
};

/** PUBLISH at QoS 1 with packet identifier `packetId`. */
const publishPacket = (topic: string, payload: string, packetId: number, retain: boolean): Buffer => {
  const topicLength = Buffer.byteLength(topic);
  const payloadLength = Buffer.byteLength(payload);
  const bodyLength = 2 + topicLength + 2 + payloadLength;
  const header = remainingLength(bodyLength);
  const bytes = Buffer.allocUnsafe(1 + header.length + bodyLength);
  let at = bytes.writeUInt8((PACKET.publish << 4) | (1 << 1) | (retain ? 1 : 0), 0);
  at += header.copy(bytes, at);
  at = bytes.writeUInt16BE(topicLength, at);
  at += bytes.write(topic, at, 'utf8');
  at = bytes.writeUInt16BE(packetId, at);
  bytes.write(payload, at, 'utf8');
  return bytes;
};

/** The complete packets at the start of `buffer` (first byte and body each), and what is left of an incomplete one. */
export const splitPackets = (buffer: Buffer): { packets: { firstByte: number; body: Buffer }[]; rest: Buffer } => {
  const packets: { firstByte: number; body: Buffer }[] = [];
  let at = 0;
  for (;;) {
    let length = 0;
    let multiplier = 1;
    let cursor = at + 1;
    let complete = false;
    while (cursor < buffer.length && cursor - at <= 4) {
      const byte = buffer[cursor++] ?? 0;
      length += (byte & 0x7f) * multiplier;
      multiplier *= 128;
      if ((byte & 0x80) === 0) {
        complete = true;
        break;
      }
    }
    if (!complete || cursor + length > buffer.length) break;
    packets.push({ firstByte: buffer[at] ?? 0, body: buffer.subarray(cursor, cursor + length) });
    at = cursor + length;
  }
  return { packets, rest: buffer.subarray(at) };
};

/** Connects `id` with `secret` to the broker at `url` (mqtt://host:port); resolves once the broker accepted it. */
export const openChamberLink = (url: string, id: string, secret: string): Promise<ChamberLink> => {
  const { protocol, hostname, port } = new URL(url);
  if (protocol !== 'mqtt:') throw new Error(`a benchmark chamber connects to mqtt:// only, not ${url}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port || 1883), noDelay: true });
    const waiting = new Map<number, ((error?: Error) => void) | undefined>();
    let nextId = 0;
    let pending = EMPTY;
    let accepted = false;
    let failure: Error | undefined;
    let lastSent = Date.now();
    const write = (bytes: Buffer): void => {
      lastSent = Date.now();
      socket.write(bytes);
    };
    const keepalive = setInterval(() => {
      if (Date.now() - lastSent >= (KEEPALIVE_SECONDS * 1000) / 2) write(PINGREQ);
    }, (KEEPALIVE_SECONDS * 1000) / 4);
    const timeout = setTimeout(() => socket.destroy(new Error(`${id}: no CONNACK within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
    const link: ChamberLink = {
      publish: (topic, payload, options = {}) => {
        if (socket.destroyed) return options.onAck?.(failure ?? new Error(`${id}: the connection is closed`));
        nextId = (nextId % 0xffff) + 1;
        waiting.set(nextId, options.onAck);
        write(publishPacket(topic, payload, nextId, options.retain === true));
      },
      end: () =>
        new Promise((ended) => {
          clearInterval(keepalive);
          if (socket.destroyed) return ended();
          socket.end(DISCONNECT, () => ended());
        }),
    };
    const receive = (firstByte: number, body: Buffer): void => {
      const type = firstByte >> 4;
      if (type === PACKET.connack) {
        const code = body[1] ?? -1;
        if (code !== 0) return void socket.destroy(new Error(`${id}: the broker refused the connection (CONNACK ${code})`));
        accepted = true;
        clearTimeout(timeout);
        resolve(link);
      } else if (type === PACKET.puback) {
        const packetId = body.readUInt16BE(0);
        const onAck = waiting.get(packetId);
        waiting.delete(packetId);
        onAck?.();
      } else if (type === PACKET.publish && ((firstByte >> 1) & 3) > 0) {
        // Nothing is subscribed; a broker that sends anyway is answered, so it does not resend forever.
        const packetId = body.readUInt16BE(2 + body.readUInt16BE(0));
        write(Buffer.from([PACKET.puback << 4, 2, packetId >> 8, packetId & 0xff]));
      }
    };
    socket.on('connect', () => write(connectPacket(id, secret)));
    socket.on('data', (chunk: Buffer) => {
      const { packets, rest } = splitPackets(pending.length === 0 ? chunk : Buffer.concat([pending, chunk]));
      for (const { firstByte, body } of packets) receive(firstByte, body);
      pending = rest.length === 0 ? EMPTY : Buffer.from(rest);
    });
    socket.on('error', (error) => {
      failure = error;
    });
    socket.on('close', () => {
      clearInterval(keepalive);
      clearTimeout(timeout);
      const error = failure ?? new Error(`${id}: the connection closed`);
      for (const onAck of waiting.values()) onAck?.(error);
      waiting.clear();
      if (!accepted) reject(error);
    });
  });
};
