import { createServer } from 'node:net';
import { Aedes } from 'aedes';
import { TOPIC_ROOT } from '../src/domain/mqtt/topics';

/**
 * The ceiling of `npm run bench:ingest`: a bare aedes broker (no credentials, no topic rights, nothing
 * stored) on a free port, with one in-process subscriber to the chambers' telemetry that takes each
 * message and does nothing. What the chambers' process reaches against it is what MQTT itself costs on
 * this machine. Forked with IPC; announces `{ type: 'listening', port }`.
 */

const main = async (): Promise<void> => {
  const broker = new Aedes();
  await broker.listen();
  await new Promise<void>((resolve) => broker.subscribe(`${TOPIC_ROOT}/+/telemetry`, (_packet, done) => done(), resolve));
  const server = createServer((socket) => broker.handle(socket));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ type: 'listening', port: typeof address === 'object' && address !== null ? address.port : 0 });
  });
  process.on('disconnect', () => process.exit(0));
};

void main();
