import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import type { Aedes, Client } from 'aedes';
import type { BrokerLog } from '../config';

/** The longest close() waits for buffered writes to leave before ending connections. */
const FLUSH_TIMEOUT_MS = 1000;
/** A TLS client that has not finished its handshake by then is dropped (Node's default is 120 s). */
const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

/** The variable naming each listener's port in a message. */
type PortVariable = 'MQTT_PORT' | 'MQTT_TLS_PORT';

const listenError = (variable: PortVariable, port: number, error: NodeJS.ErrnoException): Error => {
  if (error.code === 'EADDRINUSE') {
    return new Error(
      `${variable} ${port} is in use (another broker?): set ${variable} to a free port, or MQTT_URL=mqtt://host:port to use that broker instead`,
      { cause: error },
    );
  }
  if (error.code === 'EACCES') {
    return new Error(`${variable} ${port} cannot be opened (permission denied): set ${variable} to a port above 1023, or MQTT_URL to use an external broker`, {
      cause: error,
    });
  }
  return new Error(`the embedded MQTT broker cannot listen on ${variable} ${port}: ${error.message}`, { cause: error });
};

export interface ListenerParts {
  port: number;
  host: string | undefined;
  /** MQTT over TLS with this certificate chain and key (PEM), instead of plain TCP. */
  tls?: { cert: Buffer | string; key: Buffer | string };
  log: BrokerLog;
  /** A new connection, before anything of it is read: false closes it at once. */
  accept(socket: Socket): boolean;
  /** A new connection, handed to aedes; answers whether its packets could be limited. */
  connected(client: Client, socket: Socket): boolean;
  /** Its socket has closed. */
  closed(client: Client): void;
}

export interface BrokerListener {
  /** The port it listens on (the real one when `port` was 0). */
  readonly port: number;
  /** Stops accepting connections. */
  stop(): Promise<void>;
  /** Lets the acknowledgements just settled leave (see below). */
  flush(): Promise<void>;
  /** Ends every connection still open, aedes clients or not. */
  destroy(): void;
}

/**
 * One listener of the broker, plain TCP or TLS, each connection handed to aedes. A port that cannot be
 * opened, or a certificate and key node:tls cannot use, fails here.
 */
export const listen = async (broker: Aedes, { port, host, tls, log, accept, connected, closed }: ListenerParts): Promise<BrokerListener> => {
  const variable: PortVariable = tls === undefined ? 'MQTT_PORT' : 'MQTT_TLS_PORT';
  const sockets = new Set<Socket>();
  let packetLimitWarned = false;
  const handle = (socket: Socket): void => {
    const client = broker.handle(socket);
    socket.once('close', () => closed(client));
    if (!connected(client, socket) && !packetLimitWarned) {
      packetLimitWarned = true;
      log.warn('mqtt: cannot limit the packet size with this aedes version');
    }
  };

  let server: Server;
  if (tls === undefined) {
    server = createServer();
  } else {
    try {
      server = createTlsServer({ cert: tls.cert, key: tls.key, handshakeTimeout: TLS_HANDSHAKE_TIMEOUT_MS }, handle);
    } catch (error) {
      throw new Error(`MQTT_TLS_CERT and MQTT_TLS_KEY are not a certificate and its private key in PEM that node:tls can use: ${(error as Error).message}`, {
        cause: error,
      });
    }
    server.on('tlsClientError', (error: Error) => log.debug({ err: error.message }, 'mqtt: TLS handshake failed'));
  }
  // The raw connection (before a TLS handshake): refused ones cost no handshake and no parsing.
  server.on('connection', (socket: Socket) => {
    if (!accept(socket)) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    if (tls === undefined) handle(socket);
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenError(variable, port, error));
    server.once('error', onError);
    server.listen({ port, host }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  server.on('error', (error) => log.error({ err: error }, 'mqtt: listener error'));

  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : port;
  log.info({ port: listening, host: host ?? null, tls: tls !== undefined }, `mqtt: embedded broker listening${tls === undefined ? '' : ' (TLS)'}`);

  return {
    port: listening,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /**
     * aedes ends connections with destroy(), which drops what is still buffered; mqtt-packet corks a socket
     * and writes on the next tick. So before closing, give the acknowledgements just settled (the server's
     * last batch) their turn and a moment to leave, so a device is not left resending what was stored.
     * (A TLS connection's buffered bytes are its raw socket's, once encrypted.)
     */
    async flush() {
      await new Promise((resolve) => setImmediate(resolve));
      const deadline = Date.now() + FLUSH_TIMEOUT_MS;
      for (const socket of sockets) {
        while (socket.writableLength > 0 && !socket.destroyed && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    },
    destroy() {
      for (const socket of sockets) socket.destroy();
    },
  };
};

/**
 * Closes the broker behind its listeners: stops accepting, lets the last acknowledgements leave, closes
 * aedes, then ends every connection (those that never completed CONNECT are not aedes clients).
 */
export const closeListeners = async (broker: Aedes, listeners: readonly BrokerListener[]): Promise<void> => {
  const stopped = Promise.all(listeners.map((listener) => listener.stop()));
  for (const listener of listeners) await listener.flush();
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  for (const listener of listeners) listener.destroy();
  await stopped;
};
