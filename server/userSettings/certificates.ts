import type { Kysely } from 'kysely';
import {
  certificateExpired,
  WIRE_STATUS,
  type CertificateBody,
  type CertificateDecision,
  type CertificateStatus,
  type CertificationAnswer,
  type PendingCertificate,
} from '../../src/domain/userSettings';
import type { Caller } from '../accounts/calls';
import { asLevel } from '../accounts/levels';
import { findSubordinate } from '../accounts/reach';
import { accountNotFound } from '../accounts/service';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { badInput } from '../http/envelope';
import { announceMessages } from '../messages/post';
import { dropTodos, resolveTodos } from '../messages/todos';
import { subtreeQuery } from '../scope/service';
import { postCertificateTodos } from './certificateTodos';

/**
 * Operators' certificates (docs/user-settings.md, "Certification"): an account submits its certificate
 * (number, issuer, expiry); it waits (auditing) until an administrator above it, one that may manage it
 * (src/domain/scope/mayManage.ts isStrictlyBelow, the server's findSubordinate), passes or refuses it.
 * Each submission is a row; a new one replaces a submission still waiting. A waiting certificate is a todo
 * for each of its approvers (./certificateTodos.ts), done once it is decided, replaced with it.
 */

const iso = (ms: number): string => new Date(ms).toISOString();
const statusOf = (status: string): CertificateStatus => (status === 'pass' || status === 'rejected' ? status : 'auditing');

const certificatesOf = (db: Kysely<DB>, accountId: number) =>
  db.selectFrom('certificates').selectAll().where('account_id', '=', accountId).orderBy('id', 'desc').execute();

/** `/api/user/certification`: the account's latest certificate and every one it submitted, in the old console's shape. */
export const certification = async (ctx: Pick<AppContext, 'db'>, me: Caller): Promise<CertificationAnswer> => {
  const rows = await certificatesOf(ctx.db, me.id);
  const [latest] = rows;
  return {
    enterpriseInfo:
      latest === undefined
        ? null
        : {
            accountType: 'operator',
            status: WIRE_STATUS[statusOf(latest.status)],
            time: iso(Number(latest.submitted_at)),
            legalPerson: me.account,
            certificateType: 'operator',
            authenticationNumber: latest.number,
            enterpriseName: latest.issuer,
            expiresOn: latest.expires_on,
            approver: latest.decided_by,
            decidedAt: latest.decided_at === null ? null : iso(Number(latest.decided_at)),
          },
    record: rows.map((row) => ({
      certificationType: 1,
      certificationContent: `${row.number} · ${row.issuer} · ${row.expires_on}`,
      status: WIRE_STATUS[statusOf(row.status)],
      time: iso(Number(row.submitted_at)),
    })),
  };
};

/** What the trail keeps of a certificate. */
const audited = (row: { number: string; issuer: string; expires_on: string; status: string }) => ({
  number: row.number,
  issuer: row.issuer,
  expiresOn: row.expires_on,
  status: row.status,
});

/**
 * `/api/user/certification/submit`: a certificate expired already is refused (40000 naming expiresOn). The
 * new one waits for a decision; one still waiting is replaced (the trail's entry holds it as `before`).
 */
export const submitCertificate = async (ctx: AppContext, me: Caller, actor: AuditActor, body: CertificateBody): Promise<CertificationAnswer> => {
  const now = ctx.now();
  if (certificateExpired(body.expiresOn, now)) throw badInput('certificate.expired', { field: 'expiresOn' });
  const notices = await ctx.db.transaction().execute(async (trx) => {
    const waiting = await trx.selectFrom('certificates').selectAll().where('account_id', '=', me.id).where('status', '=', 'auditing').executeTakeFirst();
    // The replaced certificate's todos go with it: the new one's take their place.
    const dropped = waiting === undefined ? [] : await dropTodos(trx, 'certificate', waiting.id);
    if (waiting !== undefined) await trx.deleteFrom('certificates').where('id', '=', waiting.id).execute();
    const row = { account_id: me.id, number: body.number, issuer: body.issuer, expires_on: body.expiresOn, status: 'auditing', submitted_at: now };
    const { id } = await trx.insertInto('certificates').values(row).returning('id').executeTakeFirstOrThrow();
    const posted = await postCertificateTodos(trx, me, { id: Number(id), ...body }, now);
    await recordAudit(
      trx,
      actor,
      { action: 'account.submitCertificate', targetType: 'account', targetId: me.account, before: waiting === undefined ? null : audited(waiting), after: audited(row) },
      now,
    );
    return [...dropped, ...posted];
  });
  announceMessages(ctx, notices);
  return certification(ctx, me);
};

/** `/api/user/certification/pending`: the waiting certificates of the accounts strictly below the caller, oldest first. */
export const pendingCertificates = async (ctx: Pick<AppContext, 'db'>, caller: Caller): Promise<PendingCertificate[]> => {
  const query = ctx.db
    .selectFrom('certificates')
    .innerJoin('accounts', 'accounts.id', 'certificates.account_id')
    .select(['accounts.account', 'accounts.level', 'certificates.number', 'certificates.issuer', 'certificates.expires_on', 'certificates.submitted_at'])
    .where('certificates.status', '=', 'auditing')
    .where('accounts.id', '<>', caller.id)
    .orderBy('certificates.submitted_at')
    .orderBy('certificates.id');
  const rows = await (caller.level === 0 ? query : query.where('accounts.id', 'in', subtreeQuery(ctx.db, caller.id))).execute();
  return rows.map((row) => ({
    account: row.account,
    level: asLevel(row.level),
    number: row.number,
    issuer: row.issuer,
    expiresOn: row.expires_on,
    submittedAt: iso(Number(row.submitted_at)),
  }));
};

/**
 * `/api/user/certification/decide`: passes or refuses the waiting certificate of an account strictly below
 * the caller (else 40400, as for an account that does not exist). 40000 naming `account` when it has none
 * waiting, or when passing one that expired meanwhile. The approver's name and the time are stored and audited,
 * and every approver's todo is done.
 */
export const decideCertificate = async (ctx: AppContext, caller: Caller, actor: AuditActor, body: CertificateDecision): Promise<void> => {
  const now = ctx.now();
  const notices = await ctx.db.transaction().execute(async (trx) => {
    const target = await findSubordinate(trx, caller, body.account);
    if (target === undefined) throw accountNotFound();
    const waiting = await trx.selectFrom('certificates').selectAll().where('account_id', '=', target.id).where('status', '=', 'auditing').executeTakeFirst();
    if (waiting === undefined) throw badInput('certificate.notWaiting', { field: 'account', account: target.account });
    if (body.pass && certificateExpired(waiting.expires_on, now)) throw badInput('certificate.expired', { field: 'account' });
    const status: CertificateStatus = body.pass ? 'pass' : 'rejected';
    await trx.updateTable('certificates').set({ status, decided_by: caller.account, decided_at: now }).where('id', '=', waiting.id).execute();
    await recordAudit(
      trx,
      actor,
      { action: 'account.decideCertificate', targetType: 'account', targetId: target.account, before: audited(waiting), after: { ...audited(waiting), status } },
      now,
    );
    return resolveTodos(trx, 'certificate', waiting.id, now);
  });
  announceMessages(ctx, notices);
};
