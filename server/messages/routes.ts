import type { FastifyPluginAsync } from 'fastify';
import { MESSAGE_CALLS, messageListBodySchema, messageReadBodySchema } from '../../src/domain/messages';
import { requireAccess, signedIn } from '../auth/guard';
import { languageOf, ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { listMessages, readMessages } from './box';

/** The policy's name of the message box: every signed-in role may read and mark its own. */
const MESSAGES_RESOURCE = 'messages';

/**
 * The message box's calls, relative to API_PREFIX (docs/messages.md):
 *   POST /api/message/list   { current, pageSize, filter?: { type?, status? } } (or no body: page 1 of 10) → { list, total, unread }
 *   POST /api/message/read   { ids } → { read, unread }
 * Each answers the caller's own messages only; nothing is audited (reading changes only the reader's box).
 */
export const messageRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post(
    MESSAGE_CALLS.list,
    // The old console asked for its box without a body: that is the first page.
    { schema: { body: messageListBodySchema.nullish() }, onRequest: requireAccess({ resource: MESSAGES_RESOURCE, action: 'list' }) },
    async (request) =>
      ok(await listMessages(app.ctx, signedIn(request).id, languageOf(request), request.body ?? messageListBodySchema.parse({})), t(request, 'ok')),
  );

  app.post(
    MESSAGE_CALLS.read,
    { schema: { body: messageReadBodySchema }, onRequest: requireAccess({ resource: MESSAGES_RESOURCE, action: 'edit' }) },
    async (request) => ok(await readMessages(app.ctx, signedIn(request).id, request.body.ids, app.ctx.now()), t(request, 'ok')),
  );
};
