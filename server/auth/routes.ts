import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { loginBodySchema } from '../../src/domain/auth';
import { userMenuFor } from '../../src/domain/menu';
import { currentUser } from '../accounts/service';
import { actorOf } from '../audit/actor';
import { recordAudit } from '../audit/trail';
import { ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { signInGuard, signedIn } from './guard';
import { signIn } from './login';
import { revokeTokenHash } from './tokens';

/** Calls without a payload accept no body or an empty JSON object. */
export const noPayload = z.strictObject({}).nullish();

/**
 * Upstream sign-in calls, relative to API_PREFIX:
 *   POST /login              { Account, Code } → { State, Account, Level, token, expiresAt, mustChangeCode }
 *   POST /api/user/logout    signed in → revokes the token
 *   POST /api/user/info      signed in → CurrentUser (alias /getUserInfo, server/upstream.ts)
 *   POST /api/user/menu      signed in → the menu entries the caller's role may open
 * The last three also answer an account that must change its password (the console needs them to
 * show the password form), like /code/self_reset_Code; every other guarded call refuses it.
 */
export const authRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const evenIfMustChange = signInGuard({ allowMustChangeCode: true });

  app.post('/login', { schema: { body: loginBodySchema } }, async (request) => {
    const result = await signIn(app.ctx, {
      account: request.body.Account,
      password: request.body.Code,
      address: request.ip,
      agent: request.headers['user-agent'] ?? '',
    });
    return result.State ? ok(result, t(request, 'ok')) : ok(result, t(request, 'auth.wrongCredentials'));
  });

  app.post('/api/user/logout', { schema: { body: noPayload }, onRequest: evenIfMustChange }, async (request) => {
    const account = signedIn(request);
    const actor = actorOf(request);
    await app.ctx.db.transaction().execute(async (trx) => {
      await revokeTokenHash({ db: trx, now: app.ctx.now }, account.tokenHash);
      await recordAudit(trx, actor, { action: 'auth.signOut', targetType: 'account', targetId: account.account }, app.ctx.now());
    });
    return ok(null, t(request, 'ok'));
  });

  app.post('/api/user/info', { schema: { body: noPayload }, onRequest: evenIfMustChange }, async (request) =>
    ok(await currentUser(app.ctx, signedIn(request).id), t(request, 'ok')),
  );

  app.post('/api/user/menu', { schema: { body: noPayload }, onRequest: evenIfMustChange }, async (request) =>
    ok(userMenuFor(signedIn(request).role), t(request, 'ok')),
  );
};
