import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { commandSchema, type Command } from '../../src/domain/mqtt/payloads';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { announce, outcomeOf, settleCommands, type CommandLog } from './outcomes';

/**
 * Issuing a command to a chamber (docs/commands.md), in two steps around the change's transaction:
 *   1. `recordCommand`, inside it: the row in device_commands ('sent', the payload as it will be
 *      published), so the command exists exactly when the change does;
 *   2. `dispatchCommand`, after the commit: published on `oc/{Id}/cmd` through ctx.link. A command the
 *      broker does not take (no broker linked, a publish that fails) cannot reach the chamber: it ends
 *      as 'timeout' at once, and the call that issued it still succeeds.
 */

/** A command as a service asks for it; the id and the time are the server's. */
type WithoutIds<C> = C extends unknown ? Omit<C, 'cmdId' | 'Time'> : never;
export type CommandBody = WithoutIds<Command>;

/** 96 random bits, url-safe (16 characters of base64url): within the contract's cmdId pattern. */
const newCmdId = (): string => randomBytes(12).toString('base64url');

/**
 * Records the command as 'sent' at `at`, in the caller's transaction, and answers it as it will be
 * published. Parsed with the contract's own schema, so what a chamber receives is what docs/mqtt.md says.
 */
export const recordCommand = async (trx: Kysely<DB>, deviceId: string, body: CommandBody, issuedBy: number | null, at: number): Promise<Command> => {
  const command = commandSchema.parse({ ...body, cmdId: newCmdId(), Time: at });
  await trx
    .insertInto('device_commands')
    .values({
      cmd_id: command.cmdId,
      device_id: deviceId,
      type: command.type,
      payload: JSON.stringify(command),
      status: 'sent',
      error: null,
      issued_by: issuedBy,
      issued_at: at,
      answered_at: null,
    })
    .execute();
  return command;
};

/**
 * After the commit: announces the command as 'sent' and publishes it. If the broker does not take it,
 * the command times out now ('notDelivered'); should even that fail (the store is gone), the sweeper
 * times it out later. Never rejects: the change the command carries is already made.
 */
export const dispatchCommand = async (ctx: Pick<AppContext, 'db' | 'live' | 'link' | 'now'>, log: CommandLog, deviceId: string, command: Command): Promise<void> => {
  const row = { cmd_id: command.cmdId, device_id: deviceId, type: command.type };
  announce(ctx, outcomeOf(row, 'sent', command.Time));
  try {
    await ctx.link.sendCommand(deviceId, command);
  } catch (error) {
    log.warn({ err: error, deviceId, cmdId: command.cmdId }, 'command not delivered to the broker');
    await settleCommands(ctx, { cmdId: command.cmdId }, { status: 'timeout', reason: 'notDelivered' }, ctx.now()).catch((failure: unknown) =>
      log.error({ err: failure, deviceId, cmdId: command.cmdId }, 'recording an undelivered command failed'),
    );
  }
};
