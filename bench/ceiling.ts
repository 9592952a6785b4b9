import cluster from 'node:cluster';
import Fastify from 'fastify';

/**
 * The ceiling: the same Fastify with nothing behind it. One POST route that parses a JSON body like a
 * list call's and answers a JSON envelope of the size of a state-record page of 10 (17 fields a row),
 * serialised per request as the real routes are. Run as a child process by bench/api.ts on PORT.
 * WORKERS > 1: as server/main.ts does, a node:cluster primary forks that many processes listening on
 * PORT, so the ceiling runs with as many processes as the server it is compared with.
 */

const record = (index: number) => ({
  Id: `OC-${String(index).padStart(4, '0')}`,
  Time: 1_767_225_600_000 + index * 60_000,
  L: index % 2,
  SP: 1.31,
  ST: 60,
  SS: 'M',
  SL: 1,
  SA: 0,
  RCP: 1.31,
  RRD: 42,
  RCPi02: 21.73,
  RGPi02: 93.41,
  RCT: 22.4,
  RCRH: 61.2,
  HmHR: 74,
  HmSP02: 97,
  HmBP: '121/78',
});

const PAGE = Array.from({ length: 10 }, (_, index) => record(index));

const serve = async (): Promise<void> => {
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.post('/ceiling', async (request) => {
    const body = (request.body ?? {}) as { pageSize?: unknown };
    const size = typeof body.pageSize === 'number' ? Math.min(body.pageSize, PAGE.length) : PAGE.length;
    return { data: { list: PAGE.slice(0, size), total: 501 }, status: 'ok', msg: 'ok', code: 20000 };
  });

  const stop = (): void => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // A worker whose primary is gone stops too.
  if (cluster.isWorker) process.on('disconnect', stop);

  await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
};

const workers = Number(process.env.WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  const forked = Array.from({ length: workers }, () => cluster.fork());
  let exited = 0;
  for (const worker of forked) {
    worker.on('exit', () => {
      exited += 1;
      if (exited === forked.length) process.exit(0);
    });
  }
  const stopAll = (): void => {
    for (const worker of forked) worker.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stopAll);
  process.on('SIGINT', stopAll);
} else {
  await serve();
}
