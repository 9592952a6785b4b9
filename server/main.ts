import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { buildApp, type BuildAppOptions } from './app';
import { bootstrap } from './accounts/bootstrap';
import { seedDemo } from './accounts/demo';
import { ConfigError, describeDatabase, describeMqtt, loadConfig, type Config } from './config';
import { migrateToLatest } from './db/migrations';
import { seedDemoFleet } from './demo/fleet';
import { loggerOptions } from './logger';
import { newServerCredentials, type BrokerCredentials } from './mqtt/config';

/**
 * Starts the server: `node --import tsx server/main.ts [--demo]`.
 * Loads the configuration, migrates the database, creates the super administrator on first start
 * (and the demo accounts and fleet with --demo), then starts the MQTT broker (embedded on MQTT_PORT, or
 * a client of MQTT_URL's) with ingestion, and listens on HOST:PORT. The store is prepared by a first app,
 * closed before the serving one starts, so no device message is taken before the migrations ran.
 * SIGTERM / SIGINT close it gracefully (exit 0); a second signal, or a close that hangs, forces the exit.
 *
 * WORKERS > 1 (node:cluster): this process (the primary) prepares the store once, then forks WORKERS
 * processes that each build the app and listen on the same HOST:PORT (the primary hands connections out
 * in turn).
 * - Embedded broker: the primary keeps an app that runs the broker and ingestion (it serves no HTTP);
 *   each worker connects to it on 127.0.0.1:MQTT_PORT with the server's credentials (handed over in its
 *   environment) for commands, the live relay and disconnects, and takes no device messages.
 * - MQTT_URL: every worker is a full client of that broker, the shared subscriptions splitting the
 *   devices' messages between them (client id MQTT_CLIENT_ID + `.w<n>`); the primary only prepares.
 * A signal to the primary stops every worker gracefully, then its own broker app; the primary exits 0
 * once all have exited 0. A worker that dies is replaced; one that dies before it listened stops them
 * all (exit 1).
 */

const FORCED_EXIT_AFTER_MS = 10_000;

/** What the primary hands each worker in its environment (internal: not configuration). */
const WORKER_INDEX = 'OXYGEN_WORKER_INDEX';
const PRIMARY_BROKER = 'OXYGEN_PRIMARY_MQTT';

interface PrimaryBrokerEnv {
  port: number;
  credentials: BrokerCredentials;
}

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

/** The broker for the "ready at" line: the embedded one's real ports (MQTT_PORT, MQTT_TLS_PORT may be 0). */
const mqttNote = (config: Config, app: FastifyInstance | undefined): string => {
  const target = config.mqtt;
  if (target.kind !== 'embedded') return `MQTT ${describeMqtt(target)}`;
  const plain = target.plain ? `port ${app?.mqtt.port ?? target.port}` : undefined;
  const tls = target.tls === null ? undefined : `TLS port ${app?.mqtt.tlsPort ?? target.tls.port}`;
  return `MQTT broker on ${[plain, tls].filter(Boolean).join(' and ')}${target.plain ? '' : ' (plain MQTT off)'}`;
};

const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Migrates, bootstraps and (with --demo) seeds the store with a short-lived app, closed afterwards. */
const prepareStore = async (config: Config, demo: boolean, log: Logger): Promise<void> => {
  // Nothing to deliver before the store is migrated.
  const app = buildApp({ config, logger: log, notifications: false });
  try {
    await app.ready();
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
  } catch (error) {
    app.log.fatal({ err: error }, `could not start: ${failure(error)}`);
    await app.close().catch(() => undefined);
    process.exit(1);
  }
  await app.close();
};

/** The MQTT plugin's options for this process: a cluster worker's come from its primary. */
const mqttOptions = (config: Config): BuildAppOptions['mqtt'] => {
  const index = process.env[WORKER_INDEX];
  if (!cluster.isWorker || index === undefined) return true;
  if (config.mqtt.kind === 'external') return { clientIdSuffix: `.w${index}` };
  const primary = JSON.parse(process.env[PRIMARY_BROKER] ?? 'null') as PrimaryBrokerEnv | null;
  if (primary === null) throw new Error(`${PRIMARY_BROKER} is missing: a cluster worker is started by its primary`);
  return { primary: { port: primary.port, credentials: primary.credentials, clientId: `${primary.credentials.username}.worker-${index}` } };
};

/**
 * One process serving HTTP: the whole server (WORKERS=1), or a cluster worker (the primary prepared
 * the store). SIGTERM / SIGINT close it gracefully.
 */
const serve = async (config: Config, demo: boolean, worker: boolean, log: Logger): Promise<void> => {
  // Set once the store is prepared: a signal before that lets the preparation finish, then exits.
  let app: FastifyInstance | undefined = undefined;
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A worker gets a terminal's Ctrl-C and its primary's SIGTERM: one stop; a hang is the primary's to end.
      if (worker) return;
      log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    setTimeout(() => {
      log.error('shutdown took too long: exiting now');
      process.exit(1);
    }, FORCED_EXIT_AFTER_MS).unref();
    // Still preparing the store: that finishes (a migration is not cut halfway), then the process exits.
    if (app === undefined) return;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // A worker whose primary is gone (killed without a chance to stop it) stops too.
  if (worker) process.on('disconnect', () => stop('SIGTERM'));

  if (!worker) await prepareStore(config, demo, log);
  if (stopping) process.exit(0);
  // On SQLite one process delivers: the primary (docs/notifications.md, "Delivery").
  const serving = buildApp({ config, logger: log, mqtt: mqttOptions(config), notifications: worker && config.database.kind === 'sqlite' ? false : {} });
  app = serving;
  try {
    await serving.ready();
    if (stopping) return;
    await serving.listen({ port: config.port, host: config.host });
    const { port } = serving.server.address() as AddressInfo;
    if (!worker) serving.log.info(`Oxygen Console ready at ${readyUrl(config, port)} (upstream at ${config.apiPrefix}; ${mqttNote(config, serving)})`);
  } catch (error) {
    serving.log.fatal({ err: error }, `could not start: ${failure(error)}`);
    await serving.close().catch(() => undefined);
    process.exit(1);
  }
};

/**
 * The cluster's primary: prepares the store once, runs the embedded broker with ingestion (unless
 * MQTT_URL), forks the workers, stops them on a signal and then its own app.
 */
const primary = async (config: Config, demo: boolean, log: Logger): Promise<void> => {
  const workers = new Map<Worker, number>();
  const listening = new Set<Worker>();
  let broker: FastifyInstance | undefined;
  let prepared = false;
  let stopping = false;
  let failed = false;
  let announced = false;

  const exit = (): void => {
    if (broker === undefined) process.exit(failed ? 1 : 0);
    broker.close().then(
      () => process.exit(failed ? 1 : 0),
      (error: unknown) => {
        log.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  const finishIfDone = (): void => {
    // Workers first: their requests in flight may still send commands through the primary's broker.
    if (stopping && workers.size === 0) exit();
  };
  const stopAll = (signal: NodeJS.Signals): void => {
    if (stopping) {
      log.warn({ signal }, 'second signal: exiting now');
      for (const worker of workers.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal, workers: workers.size }, 'shutting down');
    setTimeout(() => {
      log.error('shutdown took too long: exiting now');
      for (const worker of workers.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, FORCED_EXIT_AFTER_MS).unref();
    for (const worker of workers.keys()) worker.process.kill('SIGTERM');
    // Still preparing: that finishes first (see serve), and start() exits.
    if (prepared) finishIfDone();
  };
  process.on('SIGTERM', stopAll);
  process.on('SIGINT', stopAll);

  await prepareStore(config, demo, log);
  prepared = true;
  if (stopping) process.exit(0);

  const env: Record<string, string> = {};
  if (config.mqtt.kind === 'embedded') {
    const credentials = newServerCredentials();
    const app = buildApp({ config, logger: log, mqtt: { serverCredentials: credentials } });
    broker = app;
    try {
      await app.ready();
    } catch (error) {
      app.log.fatal({ err: error }, `could not start: ${failure(error)}`);
      await app.close().catch(() => undefined);
      process.exit(1);
    }
    if (stopping) return exit();
    const port = app.mqtt.port ?? config.mqtt.port;
    env[PRIMARY_BROKER] = JSON.stringify({ port, credentials } satisfies PrimaryBrokerEnv);
  }

  const fork = (index: number): void => {
    const worker = cluster.fork({ ...env, [WORKER_INDEX]: String(index) });
    workers.set(worker, index);
    worker.on('listening', (address) => {
      listening.add(worker);
      if (!announced && listening.size === config.workers) {
        announced = true;
        log.info(`Oxygen Console ready at ${readyUrl(config, address.port)} (upstream at ${config.apiPrefix}; ${config.workers} workers; ${mqttNote(config, broker)})`);
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
      log.error({ pid: worker.process.pid, code, signal }, 'worker exited');
      if (!wasListening) {
        failed = true;
        stopAll('SIGTERM');
        return;
      }
      fork(index);
    });
  };
  for (let index = 1; index <= config.workers; index += 1) fork(index);
};

const main = async (): Promise<void> => {
  const demo = process.argv.slice(2).includes('--demo');
  const config = readConfig(demo);
  const log = pino(loggerOptions(config.logLevel));
  if (config.workers > 1 && cluster.isPrimary) await primary(config, demo, log);
  else await serve(config, demo, cluster.isWorker, log);
};

void main();
