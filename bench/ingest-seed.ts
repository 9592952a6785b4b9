import path from 'node:path';
import { loadConfig, type Env } from '../server/config';
import { hashDeviceSecret } from '../server/devices/registry';
import { seededRandom } from '../src/domain/random';
import type { BenchDevice } from './ingest-load';
import { readingInserter, rollUpSeeded, ROOT, seedAccounts, UNLIMITED } from './seed';
import type { BenchStore } from './store';

/**
 * The store of `npm run bench:ingest`, fresh (bench/store.ts): the super administrator and a
 * watcher (Level 1) who manages WATCHED of the publishing devices and every alarm chamber (bench:alarms),
 * every device with a secret whose hash is stored as registration stores it (the chambers' process gets
 * the secrets), and HISTORY_PER_DEVICE earlier readings of each publishing device.
 */

/**
 * Readings each publishing device already has (BENCH_HISTORY's default): one a second before the run,
 * written device by device in time order as a live fleet writes them. A store in service is in its
 * steady state: each device's readings span more than a leaf of the `(device_id, time)` index, so every
 * new reading dirties its own device's leaf. From an empty store that state came only after some 35 s
 * of the run, and the seconds before it cost a fraction as much (docs/performance.md).
 */
export const HISTORY_PER_DEVICE = 300;

/**
 * The device type of every seeded device (its alarm rules are the type's): type 5, rated 2.0 ATA, so the
 * load's sessions at 1.5 ATA stay within the rating and raise no alarm.
 */
export const BENCH_DEVICE_TYPE = 5;

export const WATCHER = { Account: 'bench-watcher', Code: 'BenchWatch2026' } as const;

export interface IngestFleet {
  /** Devices that publish telemetry. */
  publishing: BenchDevice[];
  /** Devices that connect and stay idle (memory per connection). */
  idle: BenchDevice[];
  /** The watcher's devices: a subset of `publishing`, and every `alarming` one. */
  watched: string[];
  /** Devices that raise alarms one at a time (bench:alarms), apart from the load; no earlier readings. */
  alarming: BenchDevice[];
}

/** The server's environment on `store` without its broker's (bench/deployment.ts adds it). */
export const ingestEnv = (store: Pick<BenchStore, 'dataDir' | 'env'>): Env => ({
  ...UNLIMITED,
  ...store.env,
  ADMIN_ACCOUNT: ROOT.Account,
  ADMIN_PASSWORD: ROOT.Code,
  LOG_LEVEL: 'warn',
  CONSOLE_DIR: path.join(store.dataDir, 'no-console'),
  WORKERS: '1',
});

const device = (prefix: string, index: number): BenchDevice => {
  const id = `${prefix}-${String(index).padStart(5, '0')}`;
  return { id, secret: `bench-secret-${id}` };
};

/**
 * Seeds `store`; `tag` goes into every device Id (on a broker other runs share, each run's chambers
 * are its own clients and topics).
 */
export const seedIngest = async (
  store: BenchStore,
  counts: { publishing: number; idle: number; watched: number; history: number; alarming?: number },
  tag = '',
): Promise<IngestFleet> => {
  const config = loadConfig(ingestEnv(store));
  const watcherId = await seedAccounts(config, WATCHER);

  const fleet: IngestFleet = {
    publishing: Array.from({ length: counts.publishing }, (_, index) => device(`BENCH${tag}`, index)),
    idle: Array.from({ length: counts.idle }, (_, index) => device(`IDLE${tag}`, index)),
    watched: [],
    alarming: Array.from({ length: counts.alarming ?? 0 }, (_, index) => device(`ALARM${tag}`, index)),
  };
  // Every n-th publishing device is watched, so the watched ones are spread over the schedule.
  const every = Math.max(1, Math.floor(counts.publishing / counts.watched));
  fleet.watched = [...fleet.publishing.filter((_, index) => index % every === 0).slice(0, counts.watched), ...fleet.alarming].map((one) => one.id);

  const bulk = await store.bulk();
  try {
    const now = Date.now();
    const insertDevice = bulk.into('devices', ['id', 'name', 'type', 'permission', 'location', 'state', 'order_num', 'erd', 'online', 'last_seen_at', 'secret_hash', 'created_at', 'updated_at']);
    const assign = bulk.into('account_devices', ['account_id', 'device_id', 'created_at']);
    await bulk.transaction(() => {
      for (const one of [...fleet.publishing, ...fleet.idle, ...fleet.alarming]) insertDevice(one.id, one.id, BENCH_DEVICE_TYPE, 'Open', 'Bench hall', 'Work', null, 0, 0, null, hashDeviceSecret(one.secret), now, now);
      for (const id of fleet.watched) assign(watcherId, id, now);
    });
    const insertReading = readingInserter(bulk, seededRandom(20261125));
    // About 100,000 readings a transaction: PostgreSQL's are held in memory until committed.
    const secondsPerTransaction = Math.max(1, Math.floor(100_000 / Math.max(1, fleet.publishing.length)));
    for (let from = 0; from < counts.history; from += secondsPerTransaction) {
      await bulk.transaction(() => {
        for (let second = from; second < Math.min(from + secondsPerTransaction, counts.history); second += 1) {
          const time = now - (counts.history - second) * 1000;
          for (const one of fleet.publishing) insertReading(one.id, time, second);
        }
      });
    }
  } finally {
    await bulk.close();
  }
  await rollUpSeeded(config);
  return fleet;
};
