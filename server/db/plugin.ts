import type { Database } from './database';
import { globalPlugin } from '../plugin';

export interface DatabasePluginOptions {
  database: Database;
}

/** Owns the store's lifecycle: it is closed (pool ended, SQLite file closed) when the app closes. */
export const databasePlugin = globalPlugin<DatabasePluginOptions>('oxygen-database', async (app, { database }) => {
  app.addHook('onClose', async () => {
    await database.db.destroy();
  });
});
