import fp from 'fastify-plugin';
import type { CommandOutcome } from '../../src/domain/live';
import { DEFAULT_COMMAND_TIMEOUT_SECONDS } from '../config';
import type { AppContext } from '../context';
import { sweepEvery } from '../sweep';
import { settleCommands, unsettled } from './outcomes';

/** Checking every second reports an unanswered command at most a second after its timeout. */
const COMMAND_SWEEP_INTERVAL_MS = 1000;

/**
 * Every command still 'sent' `timeoutMs` after it was issued becomes 'timeout' ('noAnswer'), each with
 * its audit entry and live event. Several server processes may sweep the same store: a command leaves
 * 'sent' once, whichever moves it.
 */
export const timeOutUnanswered = async (ctx: Pick<AppContext, 'db' | 'live'>, now: number, timeoutMs: number): Promise<CommandOutcome[]> => {
  // Looked for first, outside a transaction: settling takes SQLite's write lock, and a sweep that finds
  // nothing must not wait for the ingestion's writer (docs/ingest.md, "The writer thread").
  const overdue = { issuedUpTo: now - timeoutMs };
  if ((await ctx.db.selectFrom('device_commands').select('cmd_id').where(unsettled(overdue)).limit(1).executeTakeFirst()) === undefined) return [];
  return settleCommands(ctx, overdue, { status: 'timeout', reason: 'noAnswer' }, now);
};

export interface CommandSweeperOptions {
  /** Default DEFAULT_COMMAND_TIMEOUT_SECONDS; the app passes COMMAND_TIMEOUT_SECONDS (server/config.ts). */
  timeoutSeconds?: number;
  /** How often to look, in ms (default COMMAND_SWEEP_INTERVAL_MS). */
  intervalMs?: number;
}

const positive = (name: string, value: number): number => {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`commandSweeperPlugin: ${name} must be a positive number (got ${String(value)})`);
  return value;
};

/**
 * Times out unanswered commands (`timeOutUnanswered` at the app's clock) every `intervalMs`
 * (server/sweep.ts), through the services' context (it depends on the context plugin).
 */
export const commandSweeperPlugin = fp<CommandSweeperOptions>(
  async (app, options) => {
    const timeoutMs = positive('timeoutSeconds', options.timeoutSeconds ?? DEFAULT_COMMAND_TIMEOUT_SECONDS) * 1000;
    sweepEvery(
      app,
      'commandSweeperPlugin',
      options.intervalMs ?? COMMAND_SWEEP_INTERVAL_MS,
      async () => {
        const outcomes = await timeOutUnanswered(app.ctx, app.ctx.now(), timeoutMs);
        if (outcomes.length > 0) app.log.info({ count: outcomes.length, cmdIds: outcomes.slice(0, 100).map((outcome) => outcome.cmdId) }, 'commands timed out');
      },
      'timing out unanswered commands failed',
    );
  },
  { name: 'oxygen-command-sweeper', fastify: '5.x', dependencies: ['oxygen-context'] },
);
