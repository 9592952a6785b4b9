import type { Kysely } from 'kysely';
import type { MessageNotice } from '../../src/domain/live';
import type { MessageType } from '../../src/domain/messages';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { MESSAGE_TYPE_OF, type MessageDraft } from './kinds';

/**
 * Making messages, in two steps around the transaction of what they report (as commands do):
 *   1. `postMessages`, inside it: the rows, so a message exists exactly when its cause does;
 *   2. `announceMessages`, after the commit: a live `message` event to each owner's streams.
 */

export const postMessages = async (trx: Kysely<DB>, drafts: readonly MessageDraft[], at: number): Promise<MessageNotice[]> => {
  if (drafts.length === 0) return [];
  const rows = await trx
    .insertInto('messages')
    .values(
      drafts.map((draft) => ({
        account_id: draft.account,
        type: MESSAGE_TYPE_OF[draft.kind],
        kind: draft.kind,
        params: JSON.stringify(draft.params),
        created_at: at,
        read_at: null,
        alarm_id: draft.alarm ?? null,
        setting_request_id: draft.settingRequest ?? null,
        certificate_id: draft.certificate ?? null,
      })),
    )
    .returning(['id', 'account_id', 'type'])
    .execute();
  return rows.map(noticeOf);
};

/** The live event's news of a stored message, changed or new. */
export const noticeOf = (row: { id: number | string; account_id: number; type: string }): MessageNotice => ({
  account: row.account_id,
  id: Number(row.id),
  type: row.type as MessageType,
});

export const announceMessages = (ctx: Pick<AppContext, 'live'>, notices: readonly MessageNotice[]): void => {
  for (const notice of notices) ctx.live.publish({ type: 'message', data: notice });
};
