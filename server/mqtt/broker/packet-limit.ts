import type { Socket } from 'node:net';
import type { Client } from 'aedes';
import { printable, who, type Refuse } from './refusals';
import type { ClientSessions } from './sessions';

/** What limitPackets needs of aedes' mqtt-packet parser. */
interface PacketParser {
  parse(chunk: Buffer): number;
  packet?: { length: number };
}

/**
 * aedes feeds each chunk read from the socket to its mqtt-packet parser, which buffers a packet until it
 * is complete. Checking the packet length the parser has read after each chunk closes the connection
 * before more than one chunk past the limit is held (packetTooLarge). `_parser` is aedes' own
 * (lib/client.js): without it (another aedes version) the limit is off, and this answers false.
 */
export const limitPackets = (client: Client, socket: Socket, maxPacketBytes: number, { identities }: ClientSessions, refuse: Refuse): boolean => {
  const parser = (client as unknown as { _parser?: PacketParser })._parser;
  if (parser === undefined || typeof parser.parse !== 'function' || parser.packet === undefined) return false;
  const parse = parser.parse.bind(parser);
  parser.parse = (chunk) => {
    const left = parse(chunk);
    const length = parser.packet?.length ?? -1;
    if (length > maxPacketBytes && !socket.destroyed) {
      refuse(
        'packetTooLarge',
        { deviceId: who(identities.get(client)), clientId: client.id === null ? null : printable(client.id), bytes: length },
        'mqtt: packet too large, connection closed',
      );
      socket.destroy();
    }
    return left;
  };
  return true;
};
