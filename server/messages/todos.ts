import type { Kysely } from 'kysely';
import type { MessageNotice } from '../../src/domain/live';
import type { DB } from '../db/schema';
import { noticeOf } from './post';

/**
 * The todos that wait on something decided elsewhere (docs/messages.md): a settings request's approval and an
 * operator certificate's. Each names what it waits on in a column of its own, so that the decision finds the
 * todos of every holder and settles them in its own transaction; the caller announces the notices after the
 * commit, as it does the messages it posts.
 */

const SUBJECTS = {
  settingRequest: { column: 'setting_request_id', kind: 'settingRequestAwaiting' },
  certificate: { column: 'certificate_id', kind: 'certificateAwaiting' },
} as const;
type TodoSubject = keyof typeof SUBJECTS;

/** Marks every open todo about `id` read: it was decided (or withdrawn), so there is nothing left to do. */
export const resolveTodos = async (trx: Kysely<DB>, subject: TodoSubject, id: number, at: number): Promise<MessageNotice[]> => {
  const { column, kind } = SUBJECTS[subject];
  const rows = await trx
    .updateTable('messages')
    .set({ read_at: at })
    .where(column, '=', id)
    .where('kind', '=', kind)
    .where('read_at', 'is', null)
    .returning(['id', 'account_id', 'type'])
    .execute();
  return rows.map(noticeOf);
};

/**
 * Removes every todo about `id`, read or not: what it named is gone (a certificate replaced by a new
 * submission), and the new one's todos take their place.
 */
export const dropTodos = async (trx: Kysely<DB>, subject: TodoSubject, id: number): Promise<MessageNotice[]> => {
  const { column, kind } = SUBJECTS[subject];
  const rows = await trx.deleteFrom('messages').where(column, '=', id).where('kind', '=', kind).returning(['id', 'account_id', 'type']).execute();
  return rows.map(noticeOf);
};
