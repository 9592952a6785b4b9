import type { FastifyPluginAsync } from 'fastify';
import { OLD_ACCOUNT_LIST, oldAccountListQuerySchema } from '../../src/resources/accounts/calls';
import { USER_CENTER_CALLS } from '../../src/domain/userCenter';
import { accountsResource } from '../accounts/list';
import { noPayload } from '../auth/routes';
import { requireAccess, signedIn } from '../auth/guard';
import { languageOf, ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { latestActivity, myProjects, myTeams, visits } from './lists';

/** The user info page may be opened by every signed-in role, and these are its lists. */
const userInfo = requireAccess({ resource: 'user-info', action: 'list' });

/**
 * The old console's mocked calls that have the fleet's data behind them (src/domain/oldCalls.ts), relative
 * to API_PREFIX; nothing here writes:
 *   GET  /list/user?current&pageSize       → get_Admins' page (accounts/list, its rights and scope)
 *   POST /api/user/visits                  → [{ name, visits, growth }]: sessions and bookings, last week
 *   POST /api/user/my-project/list         → [{ id, name, description, peopleNumber, contributors }]: the caller's chambers
 *   POST /api/user/my-team/list            → [{ id, avatar, name, peopleNumber }]: the accounts directly below it
 *   POST /api/user/latest-activity         → [{ id, title, description, avatar }]: its own latest audited changes
 */
export const userCenterRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.get(
    OLD_ACCOUNT_LIST,
    { schema: { querystring: oldAccountListQuerySchema }, onRequest: requireAccess({ resource: accountsResource.config.name, action: 'list' }) },
    async (request) => ok(await accountsResource.list(app.ctx, signedIn(request), request.query), t(request, 'ok')),
  );

  const options = { schema: { body: noPayload }, onRequest: userInfo };
  app.post(USER_CENTER_CALLS.visits, options, async (request) => ok(await visits(app.ctx, signedIn(request), languageOf(request)), t(request, 'ok')));
  app.post(USER_CENTER_CALLS.myProjects, options, async (request) => ok(await myProjects(app.ctx, signedIn(request)), t(request, 'ok')));
  app.post(USER_CENTER_CALLS.myTeams, options, async (request) => ok(await myTeams(app.ctx, signedIn(request)), t(request, 'ok')));
  app.post(USER_CENTER_CALLS.latestActivity, options, async (request) => ok(await latestActivity(app.ctx, signedIn(request), languageOf(request)), t(request, 'ok')));
};
