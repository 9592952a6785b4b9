import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_MQTT_PORT, DEFAULT_MQTT_TLS_PORT, DEMO_ADMIN_PASSWORD } from '../server/config';
import { parseFaults } from './faults';
import type { SimulatorOptions } from './fleet';

/** The simulator's command line and environment (docs/simulator.md, "Options"). */

export const USAGE = `usage: npm run simulate -- [options]
  --devices N       chambers to run (default 12): the first N devices by Id, SIM-0001… registered if fewer
  --server URL      the Oxygen Console server (default http://localhost:8080)
  --mqtt URL        its MQTT broker (default mqtt://<server host>:MQTT_PORT, MQTT_PORT ${DEFAULT_MQTT_PORT};
                    with --ca, mqtts://<server host>:MQTT_TLS_PORT, MQTT_TLS_PORT ${DEFAULT_MQTT_TLS_PORT})
  --ca FILE         connect over TLS (mqtts://), trusting the broker's certificate or its CA in FILE (PEM)
  --faults LIST     faults that may happen: all, or some of oxygen, pressure, spo2, heartRate, erd,
                    sensor, silent, offline (default none)
  --fault-rate R    faults per chamber per hour (default 1)
  --speed N         programme time compression: N× faster pressurisation, hold and decompression (default 1)
  --seed S          seed of every chamber's generator (default 1)
environment: ADMIN_ACCOUNT, ADMIN_PASSWORD, DATA_DIR, API_PREFIX, MQTT_PORT, MQTT_TLS_PORT`;

export class UsageError extends Error {}

const number = (name: string, value: string | undefined, fallback: number, check: (n: number) => boolean, rule: string): number => {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || !check(parsed)) throw new UsageError(`--${name} must be ${rule} (got "${value}")`);
  return parsed;
};

/** The command line and environment → the simulator's options (without its log). */
export const parseOptions = (argv: readonly string[], env: NodeJS.ProcessEnv): Omit<SimulatorOptions, 'log'> | 'help' => {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        devices: { type: 'string' },
        server: { type: 'string' },
        mqtt: { type: 'string' },
        ca: { type: 'string' },
        faults: { type: 'string' },
        'fault-rate': { type: 'string' },
        speed: { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return 'help';
  const server = (values.server ?? 'http://localhost:8080').replace(/\/+$/, '');
  let serverUrl: URL;
  try {
    serverUrl = new URL(server);
  } catch {
    throw new UsageError(`--server must be a URL such as http://localhost:8080 (got "${server}")`);
  }
  let faults;
  try {
    faults = parseFaults(values.faults ?? '');
  } catch (error) {
    throw new UsageError(`--faults: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { ca } = values;
  const mqtt =
    values.mqtt ??
    (ca === undefined ? `mqtt://${serverUrl.hostname}:${env.MQTT_PORT ?? DEFAULT_MQTT_PORT}` : `mqtts://${serverUrl.hostname}:${env.MQTT_TLS_PORT ?? DEFAULT_MQTT_TLS_PORT}`);
  if (ca !== undefined && !mqtt.startsWith('mqtts://')) throw new UsageError(`--ca applies to a broker over TLS: --mqtt must start with mqtts:// (got "${mqtt}")`);
  return {
    server,
    mqtt,
    ...(ca === undefined ? {} : { ca: path.resolve(ca) }),
    devices: number('devices', values.devices, 12, (n) => Number.isInteger(n) && n >= 1 && n <= 10_000, 'a whole number from 1 to 10000'),
    faults,
    faultRate: number('fault-rate', values['fault-rate'], 1, (n) => n >= 0 && n <= 3600, 'a number from 0 to 3600'),
    speed: number('speed', values.speed, 1, (n) => n > 0 && n <= 3600, 'a number above 0, at most 3600'),
    seed: number('seed', values.seed, 1, (n) => Number.isInteger(n), 'a whole number'),
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    account: env.ADMIN_ACCOUNT ?? 'admin',
    password: env.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD,
    apiPrefix: env.API_PREFIX ?? '/upstream',
  };
};
