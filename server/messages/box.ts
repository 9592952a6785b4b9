import type { Kysely, SelectQueryBuilder } from 'kysely';
import {
  MESSAGE_READ,
  MESSAGE_TYPES,
  MESSAGE_UNREAD,
  messageListBodySchema,
  noUnread,
  type Message,
  type MessageKind,
  type MessageListAnswer,
  type MessageReadAnswer,
  type MessageType,
  type UnreadCounts,
} from '../../src/domain/messages';
import type { z } from 'zod';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import type { Locale } from '../../src/domain/locales';
import { renderMessage } from './kinds';

/**
 * An account's message box (docs/messages.md): its own messages only, newest first, rendered in the
 * reader's language, with its unread counts per type; and marking its own messages read.
 */

type ListBody = z.output<typeof messageListBodySchema>;

const unreadCounts = async (db: Kysely<DB>, accountId: number): Promise<UnreadCounts> => {
  const rows = await db
    .selectFrom('messages')
    .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
    .where('account_id', '=', accountId)
    .where('read_at', 'is', null)
    .groupBy('type')
    .execute();
  const counts = noUnread();
  for (const row of rows) if ((MESSAGE_TYPES as readonly string[]).includes(row.type)) counts[row.type as MessageType] = Number(row.n);
  return counts;
};

export const listMessages = async (ctx: Pick<AppContext, 'db'>, accountId: number, language: Locale, body: ListBody): Promise<MessageListAnswer> => {
  const { type, status } = body.filter ?? {};
  const filtered = <O>(query: SelectQueryBuilder<DB, 'messages', O>) => {
    let narrowed = query.where('account_id', '=', accountId);
    if (type !== undefined) narrowed = narrowed.where('type', '=', type);
    if (status !== undefined) narrowed = narrowed.where('read_at', status === MESSAGE_UNREAD ? 'is' : 'is not', null);
    return narrowed;
  };
  const [counted, rows, unread] = await Promise.all([
    filtered(ctx.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n'))).executeTakeFirstOrThrow(),
    filtered(ctx.db.selectFrom('messages').selectAll())
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(body.pageSize)
      .offset((body.current - 1) * body.pageSize)
      .execute(),
    unreadCounts(ctx.db, accountId),
  ]);
  const list = rows.map((row): Message => {
    const kind = row.kind as MessageKind;
    return {
      id: Number(row.id),
      type: row.type as MessageType,
      ...renderMessage(language, kind, JSON.parse(row.params)),
      avatar: '',
      time: row.created_at,
      messageType: kind,
      status: row.read_at === null ? MESSAGE_UNREAD : MESSAGE_READ,
    };
  });
  return { list, total: Number(counted.n), unread };
};

/** Marks the account's unread messages among `ids` read at `at`; ids of anyone else's messages change nothing, like missing ones. */
export const readMessages = async (ctx: Pick<AppContext, 'db'>, accountId: number, ids: readonly number[], at: number): Promise<MessageReadAnswer> => {
  const result = await ctx.db
    .updateTable('messages')
    .set({ read_at: at })
    .where('account_id', '=', accountId)
    .where('id', 'in', [...new Set(ids)])
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return { read: Number(result.numUpdatedRows), unread: await unreadCounts(ctx.db, accountId) };
};
