import { verifyChain } from '../server/audit/chain';
import { ConfigError, describeDatabase, loadConfig } from '../server/config';
import { createDatabase } from '../server/db/database';

/**
 * `npm run audit:verify`: checks the audit trail's hash chain in the store the server uses (DATABASE_URL,
 * else DATA_DIR's SQLite file, read from the environment as the server reads it) without starting the
 * server or changing anything. Prints what it found; exits 0 when the chain holds, 1 when an entry is
 * broken (named), 2 when it could not check (docs/audit.md, "Tamper evidence").
 */

const main = async (): Promise<number> => {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const { db } = createDatabase(config);
  try {
    const report = await verifyChain(db);
    const store = describeDatabase(config.database);
    if (report.ok) {
      const head = report.head === null ? 'no entries' : `head: entry ${report.head.id}, hash ${report.head.hash}`;
      process.stdout.write(`audit trail intact: ${report.entries} entries in ${store} (${head})\n`);
      return 0;
    }
    const why =
      report.broken.reason === 'content'
        ? 'its content does not match its hash (the entry was changed)'
        : 'it does not follow the entry before it (an entry before it was removed, inserted or changed)';
    process.stdout.write(`audit trail BROKEN at entry ${report.broken.id}: ${why}; ${report.entries} entries before it hold (${store})\n`);
    return 1;
  } catch (error) {
    process.stderr.write(`audit:verify could not read the audit trail: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    await db.destroy();
  }
};

process.exitCode = await main();
