import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import type { Env } from '../server/config';
import { topicFor } from '../src/domain/mqtt/topics';
import { freePort, startChild, type Child } from './children';
import type { StoreKind } from './store';

/**
 * The configuration the servers under test run in (bench/README.md, "The configuration"), from the
 * environment, each setting defaulting to the embedded configuration:
 *
 *   BENCH_STORE=sqlite|postgres       the store (bench/store.ts)
 *   BENCH_BROKER=embedded|mosquitto   the server's own broker, or this machine's Mosquitto (BENCH_MQTT_URL,
 *                                     mqtt://127.0.0.1:1883) with the server as its client
 *   BENCH_INSTANCES=1|2               server processes in one shared-subscription group of the run's own
 *   BENCH_COMPARE=1                   the embedded configuration first, then the one asked for
 */

type BrokerKind = 'embedded' | 'mosquitto';

export interface Deployment {
  store: StoreKind;
  broker: BrokerKind;
  instances: 1 | 2;
}

export const EMBEDDED: Deployment = { store: 'sqlite', broker: 'embedded', instances: 1 };

const BROKER_URL = process.env.BENCH_MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** In words, for tables and logs. */
export const describeDeployment = (deployment: Deployment): string =>
  `${deployment.store === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${deployment.broker === 'embedded' ? 'embedded broker' : 'Mosquitto'}, ${deployment.instances} instance${deployment.instances === 1 ? '' : 's'}`;

/** In a file name: sqlite-embedded-x1. */
const deploymentName = (deployment: Deployment): string => `${deployment.store}-${deployment.broker}-x${deployment.instances}`;

/** A results file's kind: `api`, `api-postgres-mosquitto-x2`, or `api-compare-postgres-mosquitto-x2`. */
export const resultsKind = (benchmark: string, deployments: readonly Deployment[]): string => {
  const asked = deployments[deployments.length - 1] ?? EMBEDDED;
  if (deployments.length > 1) return `${benchmark}-compare-${deploymentName(asked)}`;
  return deploymentName(asked) === deploymentName(EMBEDDED) ? benchmark : `${benchmark}-${deploymentName(asked)}`;
};

const choice = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
  const value = process.env[name];
  if (value === undefined || value === '') return fallback;
  const found = allowed.find((one) => one === value);
  if (found === undefined) throw new Error(`${name} must be ${allowed.join(' or ')} (got "${value}")`);
  return found;
};

/** The configurations to measure, in order: the one asked for, after the embedded one with BENCH_COMPARE=1. */
export const deploymentsToRun = (): Deployment[] => {
  const asked: Deployment = {
    store: choice('BENCH_STORE', ['sqlite', 'postgres'], 'sqlite'),
    broker: choice('BENCH_BROKER', ['embedded', 'mosquitto'], 'embedded'),
    instances: choice('BENCH_INSTANCES', ['1', '2'], '1') === '2' ? 2 : 1,
  };
  if (asked.instances === 2 && asked.store === 'sqlite') {
    throw new Error('BENCH_INSTANCES=2 needs BENCH_STORE=postgres: instances share one database, and a SQLite file belongs to one process');
  }
  if (asked.instances === 2 && asked.broker === 'embedded') {
    throw new Error('BENCH_INSTANCES=2 needs BENCH_BROKER=mosquitto: instances share the chambers through an external broker');
  }
  const compare = process.env.BENCH_COMPARE === '1';
  if (compare && describeDeployment(asked) === describeDeployment(EMBEDDED)) throw new Error('BENCH_COMPARE=1 compares another configuration with the embedded one: set BENCH_STORE, BENCH_BROKER or BENCH_INSTANCES');
  return compare ? [EMBEDDED, asked] : [asked];
};

/** A short tag of this run, in its share group, client ids and device Ids on a broker others share. */
export const runTag = (): string => randomBytes(3).toString('hex');

export interface Instances {
  servers: Child[];
  /** Where the chambers connect. */
  brokerUrl: string;
  /** Stops the servers, then ends their sessions on a shared broker. */
  stop: () => Promise<void>;
}

/**
 * `server/main.ts` as `deployment.instances` child processes on `env` (the store's and the benchmark's),
 * each on its own free port: with the embedded broker, one on a free MQTT port; with Mosquitto, each its
 * own client id in the run's own share group, so a group left by another run takes none of its messages.
 */
export const startInstances = async (deployment: Deployment, env: Env, run: string, options: { root: string; nodeFlags?: string[] }): Promise<Instances> => {
  const mqttPort = deployment.broker === 'embedded' ? await freePort() : 0;
  const clientId = (index: number): string => `oxygen.bench.${run}.${index}`;
  const brokerEnv = (index: number): Env =>
    deployment.broker === 'embedded'
      ? // Every chamber of the load connects from this one address, thousands in the first seconds.
        { MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1', MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE: '1000000' }
      : { MQTT_URL: BROKER_URL, MQTT_CLIENT_ID: clientId(index), MQTT_SHARE_GROUP: `oxygen-bench-${run}` };
  const indexes = Array.from({ length: deployment.instances }, (_, index) => index);
  const started = await Promise.allSettled(
    indexes.map((index) => startChild({ entry: 'server/main.ts', cwd: options.root, env: { ...env, ...brokerEnv(index) }, nodeFlags: options.nodeFlags ?? [], readyPath: '/healthz' })),
  );
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const workers = Number(env.WORKERS ?? '1');
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await Promise.all(servers.map((server) => server.stop()));
    if (deployment.broker === 'mosquitto') {
      // Cluster workers are clients of their own (docs/mqtt.md): the instance's id and `.w1`, `.w2`, ….
      const ids = indexes.flatMap((index) => [clientId(index), ...Array.from({ length: workers > 1 ? workers : 0 }, (_, worker) => `${clientId(index)}.w${worker + 1}`)]);
      await Promise.all(ids.map(async (id) => (await mqtt.connectAsync(BROKER_URL, { clientId: id, clean: true, protocolVersion: 5, reconnectPeriod: 0 })).endAsync()));
    }
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    // The start's own failure is the one to report, not the broker's answer to the clean-up.
    await stop().catch(() => undefined);
    throw failed.reason;
  }
  return { servers, brokerUrl: deployment.broker === 'embedded' ? `mqtt://127.0.0.1:${mqttPort}` : BROKER_URL, stop };
};

/**
 * Leaves nothing of the run's chambers on a shared broker: each connects once more with a clean start
 * (its persistent session ends) and clears its retained status. Call it once their connections are closed.
 */
export const forgetChambers = async (url: string, ids: readonly string[]): Promise<void> => {
  const CONCURRENT = 100;
  for (let from = 0; from < ids.length; from += CONCURRENT) {
    await Promise.all(
      ids.slice(from, from + CONCURRENT).map(async (id) => {
        const client = await mqtt.connectAsync(url, { clientId: id, clean: true, reconnectPeriod: 0 });
        await client.publishAsync(topicFor(id, 'status'), '', { qos: 1, retain: true });
        await client.endAsync();
      }),
    );
  }
};

/**
 * The messages Mosquitto has dropped since it started (`$SYS/broker/publish/messages/dropped`: QoS 1 and 2
 * messages beyond a client's `max_queued_messages`, every client of the broker counted); null when it
 * does not say within 3 s. Mosquitto renews its $SYS topics every `sys_interval` (10 s by default).
 */
export const mosquittoDropped = async (url: string): Promise<number | null> => {
  const client = await mqtt.connectAsync(url, { clean: true, reconnectPeriod: 0 });
  try {
    const value = new Promise<number>((resolve) => client.once('message', (_topic, payload) => resolve(Number(payload.toString()))));
    await client.subscribeAsync('$SYS/broker/publish/messages/dropped');
    return await Promise.race([value, new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000))]);
  } finally {
    await client.endAsync();
  }
};
