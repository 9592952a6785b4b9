import { createLiveFeed } from '../../server/live/feed';
import { unlinked } from '../../server/mqtt/link';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { buildApp } from '../../server/app';
import { createPasswordHasher } from '../../server/auth/passwords';
import { loadConfig, type Config, type Env } from '../../server/config';
import type { AppContext } from '../../server/context';
import { createDatabase, type Database } from '../../server/db/database';
import { migrateToLatest } from '../../server/db/migrations';
import type { NotificationsPluginOptions } from '../../server/notifications/worker';

/**
 * Both stores for integration tests. Usage:
 *
 *   describe.each(STORE_KINDS)('sign-in (%s)', (kind) => {
 *     const store = useStore(kind);
 *     it('…', async () => {
 *       const app = await store.app({ now: clock.now });
 *       …
 *     });
 *   });
 *
 * SQLite runs in a fresh temporary DATA_DIR, PostgreSQL in a freshly created database (one per
 * `useStore` call, dropped afterwards) reached through TEST_PG_URL, an admin connection (default
 * postgres://postgres@127.0.0.1:5432/postgres). PostgreSQL tests never skip: when it is not
 * reachable they fail saying so.
 */

export type StoreKind = 'sqlite' | 'postgres';
export const STORE_KINDS: readonly StoreKind[] = ['sqlite', 'postgres'];

export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Test defaults: scrypt cost lowered for speed (one test checks the default cost), silent logs, and the API's
 * rate limits out of the way of suites that send thousands of requests as one session (bad input, the
 * permission matrix); tests/server/api-limits.spec.ts sets its own limits.
 */
export const TEST_ENV: Env = { SCRYPT_COST: '12', LOG_LEVEL: 'silent', API_RATE_PER_MINUTE: '10000000', API_RATE_PER_ADDRESS_PER_MINUTE: '10000000' };

export interface AppOptions {
  /** Extra environment variables for this app's configuration. */
  env?: Env;
  now?: () => number;
  /** Runs before the app is ready: register extra test routes here. */
  setup?: (app: FastifyInstance) => void;
  /** Default true. */
  migrate?: boolean;
  /** The notification worker's options; default no timer (a test runs its rounds: app.notifications.round()). */
  notifications?: NotificationsPluginOptions | false;
}

export interface TestStore {
  readonly kind: StoreKind;
  /** The temporary directory of this store (DATA_DIR for SQLite); CONSOLE_DIR defaults below it. */
  readonly dir: string;
  /** A configuration for this store: TEST_ENV, then `env`. */
  config(env?: Env): Config;
  /** A ready, migrated app on this store; closed after the test. */
  app(options?: AppOptions): Promise<FastifyInstance>;
  /** A direct handle on the store (migrated), for inspecting rows. */
  readonly database: Database;
  /** An AppContext on the direct handle, for calling services without an app. */
  context(env?: Env, now?: () => number): AppContext;
  /** Deletes every row of every table. */
  wipe(): Promise<void>;
}

const adminClient = async (): Promise<pg.Client> => {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `PostgreSQL is required by the server tests but is not reachable at ${TEST_PG_URL} (${reason}). ` +
        'Start PostgreSQL (trust auth for user postgres) or set TEST_PG_URL. These tests never skip.',
    );
  }
  return client;
};

const createPgDatabase = async (): Promise<{ url: string; drop: () => Promise<void> }> => {
  const name = `oxygen_test_${process.pid}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const client = await adminClient();
  try {
    await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = await adminClient();
      try {
        await dropper.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
};

/** Wipe order: children before parents. */
const TABLES = [
  'channel_forms',
  'certificates',
  'account_profiles',
  'setting_requests',
  'notification_outbox',
  'alarm_escalations',
  'notification_quiet_hours',
  'notification_subscriptions',
  'notification_channels',
  'alarm_transitions',
  'alarms',
  'reading_rollups',
  'messages',
  'device_commands',
  'audit_log',
  'sessions',
  'sign_in_attempts',
  'state_records',
  'orders',
  'account_devices',
  'devices',
  'accounts',
  // The analysis' summaries: their triggers have taken every deleted row off, leaving rows of zeros.
  'stats_chamber_days',
  'stats_chamber_weeks',
  'stats_fleet',
] as const;

export const useStore = (kind: StoreKind): TestStore => {
  let dir = '';
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  let database: Database | undefined;
  const apps: FastifyInstance[] = [];

  const config = (env: Env = {}): Config =>
    loadConfig(
      {
        DATA_DIR: dir,
        CONSOLE_DIR: path.join(dir, 'console'),
        ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
        ...TEST_ENV,
        ...env,
      },
      { cwd: dir },
    );

  const handle = (): Database => {
    if (database === undefined) throw new Error('the store is used outside a test (before beforeAll)');
    return database;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), `oxygen-${kind}-`));
    if (kind === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      drop = created.drop;
    }
    database = createDatabase(config());
    await migrateToLatest(database);
  });

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  afterAll(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    await database?.db.destroy();
    await drop?.();
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  return {
    kind,
    get dir() {
      return dir;
    },
    get database() {
      return handle();
    },
    config,
    context(env, now = Date.now) {
      const cfg = config(env);
      const { db } = handle();
      return { config: cfg, db, kind, now, passwords: createPasswordHasher(cfg.scryptCost), live: createLiveFeed(), link: unlinked };
    },
    async app(options = {}) {
      const app = buildApp({ config: config(options.env), now: options.now, logger: false, notifications: options.notifications ?? { intervalMs: 0 } });
      apps.push(app);
      options.setup?.(app);
      await app.ready();
      if (options.migrate ?? true) await migrateToLatest(app.ctx);
      return app;
    },
    async wipe() {
      const { db } = handle();
      await db.updateTable('accounts').set({ sub_id: null }).execute();
      for (const table of TABLES) await db.deleteFrom(table).execute();
    },
  };
};

/** A clock tests can move. */
export const fakeClock = (start = Date.UTC(2026, 0, 5, 9, 0, 0)) => {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
    set(ms: number) {
      time = ms;
    },
  };
};

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
