import { createServer, type Server, type Socket } from 'node:net';
import type { Aedes, Client } from 'aedes';
import type { BrokerLog } from '../config';

/** The longest close() waits for buffered writes to leave before ending connections. */
const FLUSH_TIMEOUT_MS = 1000;

const listenError = (port: number, error: NodeJS.ErrnoException): Error => {
  if (error.code === 'EADDRINUSE') {
    return new Error(
      `MQTT_PORT ${port} is in use (another broker?): set MQTT_PORT to a free port, or MQTT_URL=mqtt://host:port to use that broker instead`,
      { cause: error },
    );
  }
  if (error.code === 'EACCES') {
    return new Error(`MQTT_PORT ${port} cannot be opened (permission denied): set MQTT_PORT to a port above 1023, or MQTT_URL to use an external broker`, {
      cause: error,
    });
  }
  return new Error(`the embedded MQTT broker cannot listen on MQTT_PORT ${port}: ${error.message}`, { cause: error });
};

interface ListenerParts {
  port: number;
  host: string | undefined;
  log: BrokerLog;
  /** A new connection, handed to aedes; answers whether its packets could be limited. */
  connected(client: Client, socket: Socket): boolean;
  /** Its socket has closed. */
  closed(client: Client): void;
}

export interface BrokerListener {
  /** The port it listens on (the real one when `port` was 0). */
  readonly port: number;
  /** Stops accepting, lets the last acknowledgements leave, closes the broker, then ends every connection. */
  close(): Promise<void>;
}

/** The broker's TCP listener: each connection handed to aedes. A port that cannot be opened fails here, with the broker closed. */
export const listen = async (broker: Aedes, { port, host, log, connected, closed }: ListenerParts): Promise<BrokerListener> => {
  const sockets = new Set<Socket>();
  let packetLimitWarned = false;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const client = broker.handle(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      closed(client);
    });
    if (!connected(client, socket) && !packetLimitWarned) {
      packetLimitWarned = true;
      log.warn('mqtt: cannot limit the packet size with this aedes version');
    }
  });

  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => reject(listenError(port, error));
      server.once('error', onError);
      server.listen({ port, host }, () => {
        server.off('error', onError);
        resolve();
      });
    });
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    throw error;
  }
  server.on('error', (error) => log.error({ err: error }, 'mqtt: listener error'));

  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : port;
  log.info({ port: listening, host: host ?? null }, 'mqtt: embedded broker listening');

  /**
   * aedes ends connections with destroy(), which drops what is still buffered; mqtt-packet corks a socket
   * and writes on the next tick. So before closing, give the acknowledgements just settled (the server's
   * last batch) their turn and a moment to leave, so a device is not left resending what was stored.
   */
  const flushWrites = async (): Promise<void> => {
    await new Promise((resolve) => setImmediate(resolve));
    const deadline = Date.now() + FLUSH_TIMEOUT_MS;
    for (const socket of sockets) {
      while (socket.writableLength > 0 && !socket.destroyed && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  };

  return {
    port: listening,
    async close() {
      const listenerClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      await flushWrites();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      // Connections that never completed CONNECT are not aedes clients: end them too.
      for (const socket of sockets) socket.destroy();
      await listenerClosed;
    },
  };
};
