import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { bootstrap } from './accounts/bootstrap';
import { seedDemo } from './accounts/demo';
import { ConfigError, describeDatabase, loadConfig, type Config } from './config';
import { migrateToLatest } from './db/migrations';
import { seedDemoFleet } from './demo/fleet';

/**
 * Starts the server: `node --import tsx server/main.ts [--demo]`.
 * Loads the configuration, migrates the database, creates the super administrator on first start
 * (and the demo accounts and fleet with --demo), listens on HOST:PORT. SIGTERM / SIGINT close it gracefully
 * (exit 0); a second signal, or a close that hangs, forces the exit.
 *
 * WORKERS > 1 (node:cluster): this process (the primary) migrates and bootstraps once, closes its
 * store, then forks WORKERS processes that each build the app and listen on the same HOST:PORT (the
 * primary hands connections out in turn). A signal to the primary stops every worker gracefully; the
 * primary exits 0 once all have exited 0. A worker that dies is replaced; one that dies before it
 * listened stops them all (exit 1).
 */

const FORCED_EXIT_AFTER_MS = 10_000;

const readConfig = (demo: boolean): Config => {
  try {
    return loadConfig(process.env, { demo });
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
};

/** A host for the "ready at" line. */
const readyUrl = (config: Config, port: number): string => {
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host}:${port}/`;
};

/** Migrates, bootstraps and (with --demo) seeds the store with `app`'s context. */
const prepareStore = async (app: ReturnType<typeof buildApp>, config: Config, demo: boolean): Promise<void> => {
  app.log.info(`store: ${describeDatabase(config.database)}`);
  const migrations = await migrateToLatest(app.ctx);
  for (const result of migrations.results ?? []) app.log.info(`migration ${result.migrationName}: ${result.status}`);
  const boot = await bootstrap(app.ctx);
  if (boot.created) app.log.info(`super administrator "${boot.account ?? ''}" created`);
  if (demo) {
    const created = await seedDemo(app.ctx);
    app.log.info(`demo accounts ${created.length > 0 ? `created: ${created.join(', ')}` : 'already present'}`);
    const fleet = await seedDemoFleet(app.ctx);
    const added = Object.values(fleet).some((count) => count > 0);
    app.log.info(
      added
        ? `demo fleet added: ${fleet.devices} devices, ${fleet.assignments} assignments, ${fleet.stateRecords} state records, ${fleet.orders} orders`
        : 'demo fleet already present',
    );
  }
};

/**
 * One process serving HTTP: the whole server (WORKERS=1), or a cluster worker (the primary prepared
 * the store). SIGTERM / SIGINT close it gracefully.
 */
const serve = async (config: Config, demo: boolean, worker: boolean): Promise<void> => {
  const app = buildApp({ config });

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A worker gets a terminal's Ctrl-C and its primary's SIGTERM: one stop; a hang is the primary's to end.
      if (worker) return;
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown took too long: exiting now');
      process.exit(1);
    }, FORCED_EXIT_AFTER_MS).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // A worker whose primary is gone (killed without a chance to stop it) stops too.
  if (worker) process.on('disconnect', () => stop('SIGTERM'));

  try {
    await app.ready();
    if (!worker) await prepareStore(app, config, demo);
    if (stopping) return;
    await app.listen({ port: config.port, host: config.host });
    const { port } = app.server.address() as AddressInfo;
    if (!worker) app.log.info(`Oxygen Console ready at ${readyUrl(config, port)} (upstream at ${config.apiPrefix})`);
  } catch (error) {
    app.log.fatal({ err: error }, 'could not start');
    await app.close().catch(() => undefined);
    process.exit(1);
  }
};

/** The cluster's primary: prepares the store once, forks the workers, stops them on a signal. */
const primary = async (config: Config, demo: boolean): Promise<void> => {
  const app = buildApp({ config });
  const workers = new Set<Worker>();
  const listening = new Set<Worker>();
  let stopping = false;
  let failed = false;
  let announced = false;

  let prepared = false;
  const finishIfDone = (): void => {
    if (!stopping || workers.size > 0) return;
    // Stopped while still preparing the store: close it first, as a single process would.
    if (!prepared) {
      app.close().then(
        () => process.exit(failed ? 1 : 0),
        () => process.exit(1),
      );
      return;
    }
    process.exit(failed ? 1 : 0);
  };
  const stopAll = (signal: NodeJS.Signals): void => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      for (const worker of workers) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal, workers: workers.size }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown took too long: exiting now');
      for (const worker of workers) worker.process.kill('SIGKILL');
      process.exit(1);
    }, FORCED_EXIT_AFTER_MS).unref();
    for (const worker of workers) worker.process.kill('SIGTERM');
    finishIfDone();
  };
  process.on('SIGTERM', stopAll);
  process.on('SIGINT', stopAll);

  const fork = (): void => {
    const worker = cluster.fork();
    workers.add(worker);
    worker.on('listening', (address) => {
      listening.add(worker);
      if (!announced && listening.size === config.workers) {
        announced = true;
        app.log.info(
          `Oxygen Console ready at ${readyUrl(config, address.port)} (upstream at ${config.apiPrefix}; ${config.workers} workers)`,
        );
      }
    });
    worker.on('exit', (code, signal) => {
      workers.delete(worker);
      const wasListening = listening.delete(worker);
      if (stopping) {
        if (code !== 0) failed = true;
        finishIfDone();
        return;
      }
      app.log.error({ pid: worker.process.pid, code, signal }, 'worker exited');
      if (!wasListening) {
        failed = true;
        stopAll('SIGTERM');
        return;
      }
      fork();
    });
  };

  try {
    await app.ready();
    await prepareStore(app, config, demo);
    // The workers open their own connections; the primary serves nothing.
    await app.close();
    prepared = true;
  } catch (error) {
    app.log.fatal({ err: error }, 'could not start');
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  if (stopping) {
    process.exit(failed ? 1 : 0);
  }
  for (let index = 0; index < config.workers; index += 1) fork();
};

const main = async (): Promise<void> => {
  const demo = process.argv.slice(2).includes('--demo');
  const config = readConfig(demo);
  if (config.workers > 1 && cluster.isPrimary) await primary(config, demo);
  else await serve(config, demo, cluster.isWorker);
};

void main();
