import type { Ack } from '../../src/domain/mqtt/payloads';
import type { AppContext } from '../context';
import { settleCommands, type CommandLog } from './outcomes';

/**
 * A device's `ack` (`oc/{Id}/ack`, already validated with ackSchema by ingestion) for one of its
 * commands: `ok: true` → 'acked', `ok: false` → 'refused' with the device's `error`; the audit entry in
 * the same transaction, then a live `command` event (server/commands/outcomes.ts).
 *
 * Only a command that is still 'sent' **and** was sent to this device changes. Anything else is logged
 * (when `log` is given) and ignored: an unknown cmdId, another device's command (a device cannot settle
 * what it was not sent), or an ack after the command timed out or was already answered (QoS 1 may
 * deliver an ack twice). Never throws for such an ack; a store failure rejects, for ingestion to log.
 */
export const applyAck = async (ctx: AppContext, deviceId: string, ack: Ack, log?: CommandLog): Promise<void> => {
  const settlement = ack.ok ? { status: 'acked' as const } : { status: 'refused' as const, error: ack.error };
  const [outcome] = await settleCommands(ctx, { cmdId: ack.cmdId, deviceId }, settlement, ctx.now());
  if (outcome !== undefined) return;
  const command = await ctx.db
    .selectFrom('device_commands')
    .select(['device_id', 'status'])
    .where('cmd_id', '=', ack.cmdId)
    .executeTakeFirst();
  const details = { deviceId, cmdId: ack.cmdId, ok: ack.ok };
  if (command === undefined) log?.warn({ ...details, reason: 'unknown command' }, 'ack ignored');
  else if (command.device_id !== deviceId) log?.warn({ ...details, reason: "another device's command" }, 'ack ignored');
  // A late or repeated ack is expected (QoS 1 redelivery, a chamber answering after the timeout).
  else log?.info({ ...details, reason: `command already ${command.status}` }, 'ack ignored');
};
