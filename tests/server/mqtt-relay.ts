import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a broker, for what a network does to MQTT clients: `cut()` drops every
 * connection through it (a client that reconnects goes through it again), and `loseReplies(true)` loses
 * what the broker sends back (its acknowledgements) while what the client sends still arrives.
 */
export const cuttableLink = async (brokerUrl: string) => {
  const target = new URL(brokerUrl);
  const [host, port] = [target.hostname, Number(target.port || 1883)];
  const sockets = new Set<Socket>();
  let repliesLost = false;
  const server: Server = createServer((inbound) => {
    const outbound = tcpConnect(port, host);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.once('close', () => sockets.delete(socket));
    }
    inbound.pipe(outbound);
    outbound.on('data', (chunk: Buffer) => {
      if (!repliesLost) inbound.write(chunk);
    });
    inbound.once('close', () => outbound.destroy());
    outbound.once('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const relayPort = typeof address === 'object' && address !== null ? address.port : 0;
  const cut = (): void => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `mqtt://127.0.0.1:${relayPort}`,
    cut,
    loseReplies: (lost: boolean): void => {
      repliesLost = lost;
    },
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      cut();
      return closed;
    },
  };
};
