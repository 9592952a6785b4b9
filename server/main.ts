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

const main = async (): Promise<void> => {
  const demo = process.argv.slice(2).includes('--demo');
  const config = readConfig(demo);
  const app = buildApp({ config });

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
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
    if (stopping) return;
    await app.listen({ port: config.port, host: config.host });
    const { port } = app.server.address() as AddressInfo;
    const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    app.log.info(`Oxygen Console ready at http://${host}:${port}/ (upstream at ${config.apiPrefix})`);
  } catch (error) {
    app.log.fatal({ err: error }, 'could not start');
    await app.close().catch(() => undefined);
    process.exit(1);
  }
};

void main();
