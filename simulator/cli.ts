import type { Log } from './api';
import { runSimulator } from './fleet';
import { parseOptions, USAGE, UsageError } from './options';

/**
 * `npm run simulate -- --devices 200 [--server URL] [--mqtt URL] [--faults oxygen,offline,erd|all]
 * [--fault-rate R] [--speed N] [--seed S]`. Signs in as ADMIN_ACCOUNT / ADMIN_PASSWORD (the demo's
 * admin / Admin2026 by default); secrets are kept under DATA_DIR (./data). SIGINT / SIGTERM: every
 * chamber says `offline` and disconnects cleanly, exit 0. docs/simulator.md.
 */

const consoleLog: Log = {
  info: (line) => process.stdout.write(`simulator: ${line}\n`),
  warn: (line) => process.stderr.write(`simulator: ${line}\n`),
  error: (line) => process.stderr.write(`simulator: error: ${line}\n`),
};

const main = async (): Promise<void> => {
  let options;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const faults = options.faults.length === 0 ? 'no faults' : `faults ${options.faults.join(',')} at ${options.faultRate}/h per chamber`;
  consoleLog.info(`${options.devices} chambers against ${options.server} (MQTT ${options.mqtt}), speed ${options.speed}×, ${faults}, seed ${options.seed}`);
  let simulator;
  try {
    simulator = await runSimulator({ ...options, log: consoleLog });
  } catch (error) {
    consoleLog.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(1);
    stopping = true;
    consoleLog.info('stopping: every chamber says offline');
    simulator.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

void main();
