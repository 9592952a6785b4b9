import type { FastifyBaseLogger } from 'fastify';
import type { ExpressionBuilder } from 'kysely';
import type { AuditAction } from '../../src/domain/audit';
import type { CommandStatus } from '../../src/domain/commands';
import type { CommandOutcome } from '../../src/domain/live';
import type { FinalCommandStatus } from '../../src/resources/devices/requests';
import type { Command } from '../../src/domain/mqtt/payloads';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { transact } from '../db/transact';
import type { MessageDraft } from '../messages/kinds';
import { announceMessages, postMessages } from '../messages/post';

/**
 * What becomes of a command once it is sent (docs/commands.md): the device acknowledges it ('acked'),
 * refuses it ('refused', with its reason), or does not answer in time ('timeout', also when it could
 * not be handed to the broker at all). A command leaves 'sent' once, with its audit entry and a message
 * to the account that issued it in the same transaction, and every change is announced on the live feed
 * after the commit.
 */

/** Where the command services log (a request's or the app's logger). */
export type CommandLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** Why a command timed out: no ack within the timeout, or the broker never took it. */
type TimeoutReason = 'noAnswer' | 'notDelivered';

export type Settlement = { status: 'acked' } | { status: 'refused'; error: string | undefined } | { status: 'timeout'; reason: TimeoutReason };

/** Which 'sent' commands a settlement applies to; every given condition must hold. */
export interface CommandFilter {
  cmdId?: string;
  deviceId?: string;
  /** Issued at or before this time (epoch ms). */
  issuedUpTo?: number;
}

/** The commands still 'sent' that `filter` names: what settleCommands moves, and what its callers may look for first. */
export const unsettled =
  (filter: CommandFilter) =>
  (eb: ExpressionBuilder<DB, 'device_commands'>) =>
    eb.and([
      eb('status', '=', 'sent'),
      ...(filter.cmdId === undefined ? [] : [eb('cmd_id', '=', filter.cmdId)]),
      ...(filter.deviceId === undefined ? [] : [eb('device_id', '=', filter.deviceId)]),
      ...(filter.issuedUpTo === undefined ? [] : [eb('issued_at', '<=', filter.issuedUpTo)]),
    ]);

const OUTCOME_ACTIONS: Record<FinalCommandStatus, AuditAction> = {
  acked: 'device.commandAcked',
  refused: 'device.commandRefused',
  timeout: 'device.commandTimedOut',
};

type OutcomeContext = Pick<AppContext, 'db' | 'live'>;

/** A command's status as the live feed and the REST API carry it. */
export const outcomeOf = (
  row: { cmd_id: string; device_id: string; type: string },
  status: CommandStatus,
  at: number,
  error?: string | null,
): CommandOutcome => ({
  cmdId: row.cmd_id,
  Id: row.device_id,
  type: row.type as Command['type'],
  status,
  ...(error ? { error } : {}),
  at,
});

export const announce = (ctx: Pick<AppContext, 'live'>, outcome: CommandOutcome): void =>
  ctx.live.publish({ type: 'command', data: outcome });

/**
 * Moves the 'sent' commands that match `filter` to the settlement's status at `at`, each with its audit
 * entry and its issuer's message (docs/messages.md), in one transaction; then announces each. A command already final (acknowledged twice, an ack
 * after its timeout) is not matched and changes nothing. Answers the outcomes of the commands it moved.
 *
 * The audit entry belongs to the command: its actor is the account that issued it, so it is visible to
 * exactly those who see the command's own entry (docs/audit.md), and its address is `system` (the server
 * recorded it, from the device's ack or its own clock).
 */
export const settleCommands = async (ctx: OutcomeContext, filter: CommandFilter, settlement: Settlement, at: number): Promise<CommandOutcome[]> => {
  const error = settlement.status === 'refused' ? (settlement.error ?? null) : null;
  const settled = await transact(ctx.db, async (trx) => {
    const rows = await trx
      .updateTable('device_commands')
      .set({ status: settlement.status, error, answered_at: at })
      .where(unsettled(filter))
      .returning(['cmd_id', 'device_id', 'type', 'issued_by'])
      .execute();
    if (rows.length === 0) return { outcomes: [], notices: [] };

    const issuerIds = [...new Set(rows.flatMap((row) => (row.issued_by === null ? [] : [row.issued_by])))];
    const issuers =
      issuerIds.length === 0 ? [] : await trx.selectFrom('accounts').select(['id', 'account']).where('id', 'in', issuerIds).execute();
    const names = new Map(issuers.map((issuer) => [issuer.id, issuer.account]));
    for (const row of rows) {
      const name = row.issued_by === null ? undefined : names.get(row.issued_by);
      const actor: AuditActor = name === undefined ? SYSTEM_ACTOR : { id: row.issued_by, account: name, address: SYSTEM_ACTOR.address };
      await recordAudit(
        trx,
        actor,
        {
          action: OUTCOME_ACTIONS[settlement.status],
          targetType: 'device',
          targetId: row.device_id,
          deviceId: row.device_id,
          before: { cmdId: row.cmd_id, status: 'sent' },
          after: {
            cmdId: row.cmd_id,
            type: row.type,
            status: settlement.status,
            ...(error === null ? {} : { error }),
            ...(settlement.status === 'timeout' ? { reason: settlement.reason } : {}),
          },
        },
        at,
      );
    }
    const drafts = rows.flatMap((row): MessageDraft[] =>
      row.issued_by === null
        ? []
        : [
            {
              account: row.issued_by,
              kind: 'commandOutcome',
              params: { device: row.device_id, command: row.type as Command['type'], status: settlement.status, ...(error === null ? {} : { error }) },
            },
          ],
    );
    return { outcomes: rows.map((row) => outcomeOf(row, settlement.status, at, error)), notices: await postMessages(trx, drafts, at) };
  });
  for (const outcome of settled.outcomes) announce(ctx, outcome);
  announceMessages(ctx, settled.notices);
  return settled.outcomes;
};
