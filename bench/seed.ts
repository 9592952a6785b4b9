import { createLiveFeed } from '../server/live/feed';
import { unlinked } from '../server/mqtt/link';
import path from 'node:path';
import { seededRandom } from '../src/domain/random';
import { bootstrap } from '../server/accounts/bootstrap';
import { createAccount } from '../server/accounts/service';
import { createPasswordHasher } from '../server/auth/passwords';
import { loadConfig, type Config, type Env } from '../server/config';
import type { AppContext } from '../server/context';
import { createDatabase } from '../server/db/database';
import { rollUpEverything } from '../server/telemetry/rollups';
import { openSqlite } from '../server/db/sqlite';
import { migrateToLatest } from '../server/db/migrations';
import type { BenchStore, Bulk } from './store';

/**
 * The benchmark's data set in a fresh store (bench/store.ts: SQLite, or a PostgreSQL database):
 * - the super administrator (`bench-root`) and a first-level administrator (`bench-admin`, Level 1,
 *   under it) managing SCOPED_DEVICES of the DEVICES devices through account_devices;
 * - DEVICES devices, READINGS_PER_DEVICE state records each (one a minute, Time unique per device),
 *   ORDERS_PER_DEVICE orders each.
 *
 * Accounts go through the server's own code (migrations, bootstrap, createAccount: real scrypt hashes).
 * The bulk rows are written in large transactions (bench/store.ts: prepared statements on SQLite, a
 * column array a statement on PostgreSQL): the server's services write one row at a time and would take
 * minutes for a million readings. Rows are
 * inserted in the order a live fleet produces them (readings minute by minute across all devices,
 * orders by time), so the table's rowid order and the index pages look like a real store's.
 * No ANALYZE is run: the server must plan well on a store nobody has tuned.
 */

export const DEVICES = 1_000;
export const SCOPED_DEVICES = 300;
export const READINGS_PER_DEVICE = 1_000;
export const ORDERS_PER_DEVICE = 100;
export const MINUTE = 60_000;
/** The first reading's Time (2026-01-01T00:00:00Z); the last is READINGS_PER_DEVICE − 1 minutes later. */
export const T0 = Date.UTC(2026, 0, 1);

export const ROOT = { Account: 'bench-root', Code: 'BenchRoot2026' } as const;
export const ADMIN = { Account: 'bench-admin', Code: 'BenchAdmin2026' } as const;

export const deviceId = (index: number): string => `OC-${String(index).padStart(4, '0')}`;

/** The Level-1 administrator's devices: 0–2, 10–12, 20–22, …: 300 of 1,000, spread over the fleet. */
export const inScope = (index: number): boolean => index % 10 < 3;

/**
 * The API's rate limits and the live streams' cap raised out of the way: a benchmark drives one session far
 * harder than a person (docs/server-auth.md, "Rate limits"), and measures the server, not its limiter.
 */
export const UNLIMITED: Env = { API_RATE_PER_MINUTE: '10000000', API_RATE_PER_ADDRESS_PER_MINUTE: '10000000', LIVE_STREAMS_PER_SESSION: '1000' };

/** The server's environment for this data set (the child server gets the same); `storeEnv` names a PostgreSQL store. */
export const benchEnv = (dataDir: string, storeEnv: Env = {}): Env => ({
  ...UNLIMITED,
  DATA_DIR: dataDir,
  ...storeEnv,
  ADMIN_ACCOUNT: ROOT.Account,
  ADMIN_PASSWORD: ROOT.Code,
  // The readings lie at T0 (2026-01-01), past the default 30 days: without this the retention sweeper of
  // every instance deletes all of them 30 s after its start, in the middle of the measurement.
  RAW_RETENTION_DAYS: '36500',
  LOG_LEVEL: 'silent',
  CONSOLE_DIR: path.join(dataDir, 'no-console'),
});

export interface SeedResult {
  adminId: number;
  stateRecords: number;
  orders: number;
  seconds: number;
}

const round = (value: number, digits: number): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** Pressurisation speeds the seeded readings cycle through (SS). */
const SPEEDS = ['F', 'M', 'S'] as const;

/**
 * Writes readings with plausible values straight into state_records (both benchmarks' seeds): the
 * answer writes `id`'s reading at `time`; `sequence` (the reading's number in its device's series)
 * varies the cyclic fields. Call it inside a transaction.
 */
export const readingInserter = (bulk: Bulk, random: () => number): ((id: string, time: number, sequence: number) => void) => {
  const write = bulk.into('state_records', ['device_id', 'time', 'l', 'sp', 'st', 'ss', 'sl', 'sa', 'rcp', 'rrd', 'rcpi02', 'rgpi02', 'rct', 'rcrh', 'hm_hr', 'hm_sp02', 'hm_bp']);
  return (id, time, sequence) => {
    const pressure = round(1 + random() * 0.5, 2);
    write(
      id,
      time,
      sequence % 2,
      pressure,
      60,
      SPEEDS[sequence % SPEEDS.length] ?? 'F',
      1,
      0,
      pressure,
      60 - (sequence % 60),
      round(20.5 + random() * 2, 2),
      round(93 + random() * 2, 2),
      round(20 + random() * 5, 1),
      round(50 + random() * 20, 1),
      60 + Math.floor(random() * 30),
      95 + Math.floor(random() * 5),
      `${115 + Math.floor(random() * 10)}/${75 + Math.floor(random() * 6)}`,
    );
  };
};

/**
 * Migrates a fresh store, creates the super administrator (the server's own bootstrap, ROOT) and a
 * first-level administrator under it (real scrypt hashes); answers that administrator's id.
 */
export const seedAccounts = async (config: Config, admin: { Account: string; Code: string }): Promise<number> => {
  const database = createDatabase(config);
  const ctx: AppContext = {
    config,
    db: database.db,
    kind: database.kind,
    now: Date.now,
    passwords: createPasswordHasher(config.scryptCost),
    live: createLiveFeed(),
    link: unlinked,
  };
  try {
    await migrateToLatest(database);
    await bootstrap(ctx, () => undefined);
    const root = await ctx.db.selectFrom('accounts').select('id').where('account', '=', ROOT.Account).executeTakeFirstOrThrow();
    return (await createAccount(ctx, { account: admin.Account, password: admin.Code, level: 1, subId: root.id })).id;
  } finally {
    await database.db.destroy();
  }
};

/**
 * A seeded store's readings rolled up as a server leaves them after a clean close: otherwise each server's
 * repair at start recomputes the minutes of the 200,000 newest rows (about 15 s of CPU for bench:api's)
 * while it is being measured.
 */
export const rollUpSeeded = async (config: Parameters<typeof createDatabase>[0]): Promise<void> => {
  const database = createDatabase(config);
  try {
    await rollUpEverything(database.db, database.kind);
  } finally {
    await database.db.destroy();
  }
};

export const seed = async (store: BenchStore): Promise<SeedResult> => {
  const started = performance.now();
  const config = loadConfig(benchEnv(store.dataDir, store.env));

  const adminId = await seedAccounts(config, ADMIN);

  const random = seededRandom(20260101);
  const bulk = await store.bulk();
  try {
    const now = Date.now();
    const insertDevice = bulk.into('devices', ['id', 'name', 'type', 'permission', 'location', 'state', 'order_num', 'erd', 'online', 'last_seen_at', 'secret_hash', 'created_at', 'updated_at']);
    const insertAssignment = bulk.into('account_devices', ['account_id', 'device_id', 'created_at']);
    const sites = ['Beijing', 'Shanghai', 'Guangzhou', 'Chengdu'];
    const states = ['Work', 'Work', 'Work', 'Stop', 'Repair'];
    await bulk.transaction(() => {
      for (let index = 0; index < DEVICES; index += 1) {
        const state = states[index % states.length] ?? 'Work';
        const online = state === 'Repair' ? 0 : 1;
        insertDevice(
          deviceId(index),
          `Chamber ${index}`,
          (index % 5) + 1,
          state === 'Work' ? 'Open' : 'Close',
          `${sites[index % sites.length] ?? ''}, Hall ${String.fromCharCode(65 + (index % 8))}`,
          state,
          null,
          0,
          online,
          online === 1 ? now : null,
          null,
          now,
          now,
        );
        if (inScope(index)) insertAssignment(adminId, deviceId(index), now);
      }
    });

    const insertReading = readingInserter(bulk, random);
    const ids = Array.from({ length: DEVICES }, (_, index) => deviceId(index));
    const MINUTES_PER_TRANSACTION = 100;
    for (let from = 0; from < READINGS_PER_DEVICE; from += MINUTES_PER_TRANSACTION) {
      await bulk.transaction(() => {
        for (let minute = from; minute < Math.min(from + MINUTES_PER_TRANSACTION, READINGS_PER_DEVICE); minute += 1) {
          for (const id of ids) insertReading(id, T0 + minute * MINUTE, minute);
        }
      });
    }

    const insertOrder = bulk.into('orders', ['order_num', 'device_id', 'time', 'set_t', 'oc', 'open_id', 'is_used', 'is_pass', 'finished_at']);
    const ORDERS = DEVICES * ORDERS_PER_DEVICE;
    // Orders over the readings' span, in time order: order n at T0 + n·step, on a pseudo-random device
    // chosen so that every device gets exactly ORDERS_PER_DEVICE orders.
    const span = READINGS_PER_DEVICE * MINUTE;
    const step = Math.floor(span / ORDERS);
    // A booking never used whose window has closed is expired (IsPass), as the server's sweeper leaves a
    // live store: left open, the first sweep (30 s after the server starts) would expire some 28,000 of
    // them with an audit entry each, a burst of writes in the middle of the measurement.
    const expiredBefore = now - config.orderExpiryMinutes * MINUTE;
    await bulk.transaction(() => {
      for (let n = 0; n < ORDERS; n += 1) {
        const device = ids[(n * 7919) % DEVICES] ?? deviceId(0);
        const time = T0 + n * step;
        const setT = time + 30 * MINUTE;
        const used = random() < 0.6 ? 1 : 0;
        insertOrder(
          `B${String(n).padStart(8, '0')}`,
          device,
          time,
          setT,
          String(100_000 + (n % 900_000)),
          `oBench${n % 5000}`,
          used,
          used === 0 && (setT < expiredBefore || random() < 0.3) ? 1 : 0,
          used === 1 ? time + 90 * MINUTE : null,
        );
      }
    });
  } finally {
    await bulk.close();
  }
  await rollUpSeeded(config);
  return {
    adminId,
    stateRecords: DEVICES * READINGS_PER_DEVICE,
    orders: DEVICES * ORDERS_PER_DEVICE,
    seconds: (performance.now() - started) / 1000,
  };
};

/** Readings per statement when the store is topped up: a transaction each. */
const TOP_UP_CHUNK = 1_000_000;

/**
 * Brings the store's readings to `total` (the readings-10m scenario of bench:api): readings before the
 * seed's own, a minute apart per device, every device in turn, written by SQLite itself from a recursive
 * series, a million a statement, not built row by row here.
 */
export const topUpReadings = (dataDir: string, total: number): { added: number; seconds: number } => {
  const started = performance.now();
  const config = loadConfig(benchEnv(dataDir));
  if (config.database.kind !== 'sqlite') throw new Error('the benchmark seeds SQLite only');
  const connection = openSqlite(config.database.file, 'OFF');
  try {
    const existing = (connection.prepare('select count(*) as n from state_records').get() as { n: number }).n;
    const added = Math.max(0, total - existing);
    const insert = connection.prepare(
      `insert into state_records (device_id, time, sp, rcp, rrd, rcpi02, rgpi02, rct, rcrh, rap, hm_hr, hm_sp02, hm_bp)
       with recursive s(i) as (select cast(? as integer) union all select i + 1 from s where i < cast(? as integer))
       select 'OC-' || substr('000' || (i % ${DEVICES}), -4), ${T0} - (1 + i / ${DEVICES}) * ${MINUTE}, 1.5, 1 + (i % 37) / 100.0,
         60 - (i % 60), 21 + (i % 5), 93, 20 + (i % 11), 55, 101.3, 60 + (i % 30), 97, '120/80' from s`,
    );
    for (let from = 0; from < added; from += TOP_UP_CHUNK) {
      connection.transaction(() => insert.run(from, Math.min(from + TOP_UP_CHUNK, added) - 1))();
    }
    return { added, seconds: (performance.now() - started) / 1000 };
  } finally {
    connection.close();
  }
};
