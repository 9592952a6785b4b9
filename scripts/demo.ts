import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../server/config';
import { startBookingDesk } from './demo-bookings';

/**
 * `npm run demo` (after `npm run build`): the server with --demo, then, once it answers /healthz, the
 * simulator against it (a few dozen chambers, faults at a low rate, the programme four times faster)
 * and the demo's booking desk (scripts/demo-bookings.ts). Options after `--` go to the simulator
 * (`npm run demo -- --devices 60 --speed 1`). Ctrl-C or SIGTERM stops the simulator (its chambers say
 * offline), then the server; the exit code is the server's. If the server fails, or the simulator
 * does, the other is stopped and the exit code is not 0. docs/simulator.md, "The demo".
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const READY_WITHIN_MS = 60_000;
const STOP_WITHIN_MS = 15_000;

const say = (line: string): void => void process.stdout.write(`demo: ${line}\n`);

/** A listening address as a client reaches it: the wildcard addresses mean this machine. */
const reachable = (host: string): string => (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host);

/** The simulator's defaults for the demo; any of them can be given after `--`. */
const simulatorArgs = (config: Config, argv: string[]): { args: string[]; devices: number } => {
  const { values } = parseArgs({
    args: argv,
    options: {
      devices: { type: 'string', default: '30' },
      faults: { type: 'string', default: 'all' },
      'fault-rate': { type: 'string', default: '1' },
      speed: { type: 'string', default: '4' },
      seed: { type: 'string', default: '1' },
    },
    strict: true,
  });
  const target = config.mqtt;
  // With MQTT_PLAIN=off the chambers connect over TLS, trusting the broker's own certificate (a test one, in a demo).
  const broker =
    target.kind === 'external'
      ? ['--mqtt', target.url]
      : target.plain || target.tls === null
        ? ['--mqtt', `mqtt://${reachable(target.host)}:${target.port}`]
        : ['--mqtt', `mqtts://${reachable(target.host)}:${target.tls.port}`, '--ca', target.tls.certFile];
  const server = `http://${reachable(config.host)}:${config.port}`;
  const args = Object.entries(values).flatMap(([name, value]) => [`--${name}`, String(value)]);
  return { args: ['--server', server, ...broker, ...args], devices: Number(values.devices) };
};

/** A child in its own process group, so a terminal's Ctrl-C reaches it once, from here. */
const start = (script: string, args: string[]): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, stdio: 'inherit', detached: true, env: process.env });

const exited = (child: ChildProcess): Promise<number> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode ?? 1)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));

/** SIGTERM, then SIGKILL if it has not exited in time; answers its exit code. */
const stopChild = async (child: ChildProcess | undefined): Promise<number> => {
  if (child === undefined) return 0;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode ?? 1;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_WITHIN_MS);
  const code = await exited(child);
  clearTimeout(timer);
  return code;
};

const waitUntilReady = async (url: string, server: ChildProcess): Promise<boolean> => {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null || server.signalCode !== null) return false;
    const healthy = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
};

const main = async (): Promise<void> => {
  let config: Config;
  try {
    config = loadConfig(process.env, { demo: true });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  let options: ReturnType<typeof simulatorArgs>;
  try {
    options = simulatorArgs(config, process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\nusage: npm run demo -- [--devices N] [--faults LIST] [--fault-rate R] [--speed N] [--seed S]\n`);
    process.exit(2);
  }
  const { args, devices } = options;

  const server = start('server/main.ts', ['--demo']);
  // Started once the server answers.
  const later: { simulator?: ChildProcess; desk?: { stop(): Promise<void> } } = {};
  let stopping = false;

  const stopAll = async (code: number | undefined): Promise<never> => {
    stopping = true;
    await later.desk?.stop().catch(() => undefined);
    const simulatorCode = await stopChild(later.simulator);
    const serverCode = await stopChild(server);
    process.exit(code ?? (serverCode !== 0 ? serverCode : simulatorCode));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      say('stopping the simulator, then the server');
      void stopAll(undefined);
    });
  }
  // Whatever ends this process, its children do not outlive it.
  process.on('exit', () => {
    for (const child of [later.simulator, server]) if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  void exited(server).then((code) => {
    if (stopping) return;
    say(`the server exited (${code}): stopping the simulator`);
    void stopAll(code === 0 ? 1 : code);
  });

  const url = `http://${reachable(config.host)}:${config.port}`;
  if (!(await waitUntilReady(url, server))) {
    if (stopping) return;
    say(`the server did not answer ${url}/healthz`);
    await stopAll(1);
  }
  if (stopping) return;
  later.desk = startBookingDesk(config, { devices, log: say });
  later.simulator = start('simulator/cli.ts', args);
  void exited(later.simulator).then((code) => {
    if (stopping) return;
    say(`the simulator exited (${code}): stopping the server`);
    void stopAll(code === 0 ? 1 : code);
  });
};

void main();
