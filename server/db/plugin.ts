import fp from 'fastify-plugin';
import type { Config } from '../config';
import { createDatabase, type Database } from './database';

declare module 'fastify' {
  interface FastifyInstance {
    /** The store (ctx.db and ctx.kind are its parts). */
    database: Database;
  }
}

export interface DatabasePluginOptions {
  config: Pick<Config, 'database' | 'sqliteSynchronous'>;
}

/**
 * Decorates `database`, opened from the configuration, and owns its lifecycle: it is closed (pool
 * ended, SQLite file closed) when the app closes, after every plugin that depends on it (onClose hooks
 * run in reverse order of registration, and a dependency is registered first).
 */
export const databasePlugin = fp<DatabasePluginOptions>(
  async (app, { config }) => {
    const database = createDatabase(config, {
      onPoolError: (error) => app.log.error({ err: error }, 'database connection error'),
    });
    app.decorate('database', database);
    app.addHook('onClose', async () => {
      await database.db.destroy();
    });
  },
  { name: 'oxygen-database', fastify: '5.x' },
);
