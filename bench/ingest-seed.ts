import path from 'node:path';
import { loadConfig, type Env } from '../server/config';
import { openSqlite } from '../server/db/sqlite';
import { hashDeviceSecret } from '../server/devices/registry';
import { seededRandom } from '../src/domain/random';
import type { BenchDevice } from './ingest-load';
import { readingInserter, ROOT, seedAccounts, UNLIMITED } from './seed';

/**
 * The store of `npm run bench:ingest`, in a fresh SQLite DATA_DIR: the super administrator and a
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

export const ingestEnv = (dataDir: string, mqttPort: number): Env => ({
  ...UNLIMITED,
  DATA_DIR: dataDir,
  ADMIN_ACCOUNT: ROOT.Account,
  ADMIN_PASSWORD: ROOT.Code,
  LOG_LEVEL: 'warn',
  CONSOLE_DIR: path.join(dataDir, 'no-console'),
  MQTT_PORT: String(mqttPort),
  MQTT_HOST: '127.0.0.1',
  // Every chamber of the load connects from this one address, thousands in the first seconds.
  MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE: '1000000',
  WORKERS: '1',
});

const device = (prefix: string, index: number): BenchDevice => {
  const id = `${prefix}-${String(index).padStart(5, '0')}`;
  return { id, secret: `bench-secret-${id}` };
};

export const seedIngest = async (
  dataDir: string,
  counts: { publishing: number; idle: number; watched: number; history: number; alarming?: number },
): Promise<IngestFleet> => {
  const config = loadConfig(ingestEnv(dataDir, 0));
  if (config.database.kind !== 'sqlite') throw new Error('bench:ingest runs on SQLite');
  const watcherId = await seedAccounts(config, WATCHER);

  const fleet: IngestFleet = {
    publishing: Array.from({ length: counts.publishing }, (_, index) => device('BENCH', index)),
    idle: Array.from({ length: counts.idle }, (_, index) => device('IDLE', index)),
    watched: [],
    alarming: Array.from({ length: counts.alarming ?? 0 }, (_, index) => device('ALARM', index)),
  };
  // Every n-th publishing device is watched, so the watched ones are spread over the schedule.
  const every = Math.max(1, Math.floor(counts.publishing / counts.watched));
  fleet.watched = [...fleet.publishing.filter((_, index) => index % every === 0).slice(0, counts.watched), ...fleet.alarming].map((one) => one.id);

  const connection = openSqlite(config.database.file, 'NORMAL');
  try {
    const now = Date.now();
    const insertDevice = connection.prepare(
      `insert into devices (id, name, type, permission, location, state, order_num, erd, online, last_seen_at, secret_hash, created_at, updated_at)
       values (?, ?, ${BENCH_DEVICE_TYPE}, 'Open', 'Bench hall', 'Work', null, 0, 0, null, ?, ?, ?)`,
    );
    const assign = connection.prepare('insert into account_devices (account_id, device_id, created_at) values (?, ?, ?)');
    connection.transaction(() => {
      for (const one of [...fleet.publishing, ...fleet.idle, ...fleet.alarming]) insertDevice.run(one.id, one.id, hashDeviceSecret(one.secret), now, now);
      for (const id of fleet.watched) assign.run(watcherId, id, now);
    })();
    const insertReading = readingInserter(connection, seededRandom(20261125));
    connection.transaction(() => {
      for (let second = 0; second < counts.history; second += 1) {
        const time = now - (counts.history - second) * 1000;
        for (const one of fleet.publishing) insertReading(one.id, time, second);
      }
    })();
  } finally {
    connection.close();
  }
  return fleet;
};
