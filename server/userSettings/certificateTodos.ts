import type { Kysely } from 'kysely';
import type { MessageNotice } from '../../src/domain/live';
import { canAccess } from '../../src/domain/policy';
import { levelToRole } from '../../src/domain/roles';
import { accountsAbove, superAdministratorsBut } from '../accounts/reach';
import type { DB } from '../db/schema';
import { postMessages } from '../messages/post';

/**
 * A waiting certificate is a todo for each administrator who may decide it (docs/user-settings.md,
 * "Approval"): one the policy lets approve certificates (`certificates.approve`) that has the holder strictly
 * below it, which is every super administrator but the holder and each administrator on the way up from
 * the holder. Deciding it resolves them (server/messages/todos.ts), a new submission replaces them.
 */

const mayApprove = (level: number): boolean => canAccess(levelToRole(level), { resource: 'certificates', action: 'approve' });

/** The accounts that may decide a certificate of `holder` (its id), each once. */
const approversOf = async (db: Kysely<DB>, holder: number): Promise<number[]> => {
  const above = (await accountsAbove(db, holder)).filter((upper) => mayApprove(upper.level)).map((upper) => upper.id);
  return [...new Set([...(await superAdministratorsBut(db, holder)), ...above])];
};

/** Posts the todos of a certificate just submitted, in the submission's transaction. */
export const postCertificateTodos = async (
  trx: Kysely<DB>,
  holder: { id: number; account: string },
  certificate: { id: number; number: string; issuer: string; expiresOn: string },
  at: number,
): Promise<MessageNotice[]> => {
  const params = { account: holder.account, number: certificate.number, issuer: certificate.issuer, expiresOn: certificate.expiresOn };
  const drafts = (await approversOf(trx, holder.id)).map((account) => ({ account, kind: 'certificateAwaiting' as const, params, certificate: certificate.id }));
  return postMessages(trx, drafts, at);
};
