import { CODES } from '../../src/domain/envelope';
import type { MessageNotice } from '../../src/domain/live';
import type { Settings } from '../../src/resources/devices/requests';
import type { SettingRequestRecord, SignatureBody } from '../../src/resources/setting-requests/requests';
import { checked } from '../auth/login';
import { attemptFailed, attemptPassed, reserveAttempt } from '../auth/throttle';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { CommandLog } from '../commands/outcomes';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { changeSettings } from '../devices/commands';
import { AppError, badInput, notFound } from '../http/envelope';
import { announceMessages, postMessages } from '../messages/post';
import { resolveTodos } from '../messages/todos';
import type { Viewer } from '../scope/service';
import type { Kysely } from 'kysely';
import { readRequest, settingsHash } from './list';
import { changeWaiting, visibleRequest } from './service';

/**
 * Deciding a settings request with an electronic signature (docs/approval.md, "Signatures"; 21 CFR 11.50 and
 * 11.200: the signer's own password again at each signing, and what the signature means). A wrong password is
 * a sign-in failure of the signer's account (server/auth/throttle.ts), so a stolen session cannot guess
 * passwords here faster than at the sign-in page, and is audited.
 */

type DecideContext = Pick<AppContext, 'db' | 'kind' | 'now' | 'live' | 'link' | 'passwords' | 'config'>;

/**
 * The signer's password, checked under the sign-in throttle (42900 before any check when it is exceeded). A
 * wrong one counts as a failure, is audited as `settingRequest.signatureRefused` and answers 40000 naming
 * `password`; nothing of the decision is written.
 */
const verifySignature = async (ctx: DecideContext, actor: AuditActor & { id: number }, request: { id: number; deviceId: string }, password: string) => {
  const attempt = await reserveAttempt(ctx, actor.account, actor.address);
  if (attempt === undefined) throw new AppError(CODES.tooManyAttempts, 'auth.tooManyFailures');
  const matches = await checked(ctx, attempt, async () => {
    const row = await ctx.db.selectFrom('accounts').select('password_hash').where('id', '=', actor.id).executeTakeFirst();
    return ctx.passwords.verify(password, row?.password_hash);
  });
  if (matches) {
    await attemptPassed(ctx, attempt);
    return;
  }
  await ctx.db.transaction().execute(async (trx) => {
    await attemptFailed({ db: trx, now: ctx.now });
    await recordAudit(trx, actor, { action: 'settingRequest.signatureRefused', targetType: 'settingRequest', targetId: request.id, deviceId: request.deviceId }, ctx.now());
  });
  throw badInput('settingRequest.wrongPassword', { field: 'password' });
};

/** What a decision writes beside the request's row: the todos done, the requester told, the signed entry. */
const recordDecision = async (
  trx: Kysely<DB>,
  actor: AuditActor,
  row: { id: number; device_id: string; requested_by: number },
  decision: 'approved' | 'rejected',
  body: SignatureBody,
  at: number,
  cmdId: string | null,
): Promise<MessageNotice[]> => {
  const resolved = await resolveTodos(trx, 'settingRequest', row.id, at);
  const told = await postMessages(
    trx,
    [{ account: row.requested_by, kind: 'settingRequestDecided', params: { request: row.id, device: row.device_id, by: actor.account, decision }, settingRequest: row.id }],
    at,
  );
  await recordAudit(
    trx,
    actor,
    {
      action: decision === 'approved' ? 'settingRequest.approve' : 'settingRequest.reject',
      targetType: 'settingRequest',
      targetId: row.id,
      deviceId: row.device_id,
      before: { status: 'waiting' },
      after: { status: decision, signer: actor.account, signedAt: at, meaning: body.meaning, settingsHash: body.settingsHash, ...(cmdId === null ? {} : { cmdId }) },
    },
    at,
  );
  return [...resolved, ...told];
};

/**
 * `POST /api/v1/setting-requests/:id/approve` and `/reject`: an administrator above the requester who manages
 * the device (the request in its scope and not its own, else 40400) signs, and the request is decided once:
 * deciding it again is 40000 naming its status. The signature must be over the settings as they stand
 * (`settingsHash`, else 40000). Approval sends the settings command (docs/commands.md) in the same
 * transaction as the decision, so it is sent exactly once, after the commit.
 */
export const decideRequest = async (
  ctx: DecideContext,
  log: CommandLog,
  viewer: Viewer,
  actor: AuditActor & { id: number },
  id: number,
  decision: 'approved' | 'rejected',
  body: SignatureBody,
): Promise<SettingRequestRecord> => {
  const row = await visibleRequest(ctx.db, viewer, id);
  if (row.requested_by === viewer.id) throw notFound();
  if (row.status !== 'waiting') throw badInput('settingRequest.notWaiting', { id, status: row.status });
  await verifySignature(ctx, actor, { id, deviceId: row.device_id }, body.password);
  const settings = Object.fromEntries(JSON.parse(row.settings) as [string, unknown][]) as Partial<Settings>;
  // What is sent is what was signed: the stored settings must hash to the signed hash.
  if (settingsHash(row.device_id, settings) !== body.settingsHash) {
    throw badInput('settingRequest.changed', { id, field: 'settingsHash' });
  }
  const signed = (at: number, cmdId: string | null) => ({
    status: decision,
    decided_by: actor.id,
    decider_account: actor.account,
    decided_at: at,
    meaning: body.meaning,
    signed_hash: body.settingsHash,
    ...(cmdId === null ? {} : { cmd_id: cmdId }),
  });
  const notices: MessageNotice[] = [];
  if (decision === 'approved') {
    await changeSettings(ctx, log, viewer, actor, { Id: row.device_id, ...settings }, async (trx, cmdId, at) => {
      await changeWaiting(trx, id, signed(at, cmdId), body.settingsHash);
      notices.push(...(await recordDecision(trx, actor, row, decision, body, at, cmdId)));
    });
  } else {
    await ctx.db.transaction().execute(async (trx) => {
      const at = ctx.now();
      await changeWaiting(trx, id, signed(at, null), body.settingsHash);
      notices.push(...(await recordDecision(trx, actor, row, decision, body, at, null)));
    });
  }
  announceMessages(ctx, notices);
  const record = await readRequest(ctx, viewer, id);
  if (record === undefined) throw notFound();
  return record;
};
