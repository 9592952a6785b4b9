import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { loginBodySchema } from '../../src/domain/auth';
import { currentUser } from '../accounts/service';
import { ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { requireSignIn, signedIn } from './guard';
import { signIn } from './login';
import { revokeTokenHash } from './tokens';

/** Calls without a payload accept no body or an empty JSON object. */
export const noPayload = z.strictObject({}).nullish();

/**
 * Upstream sign-in calls, relative to API_PREFIX:
 *   POST /login              { Account, Code } → { State, Account, Level, token, expiresAt, mustChangeCode }
 *   POST /api/user/logout    signed in → revokes the token
 *   POST /api/user/info      signed in → CurrentUser
 */
export const authRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.post('/login', { schema: { body: loginBodySchema } }, async (request) => {
    const result = await signIn(app.ctx, {
      account: request.body.Account,
      password: request.body.Code,
      address: request.ip,
    });
    return result.State ? ok(result, t(request, 'ok')) : ok(result, t(request, 'auth.wrongCredentials'));
  });

  app.post('/api/user/logout', { schema: { body: noPayload }, preHandler: requireSignIn }, async (request) => {
    await revokeTokenHash(app.ctx, signedIn(request).tokenHash);
    return ok(null, t(request, 'ok'));
  });

  app.post('/api/user/info', { schema: { body: noPayload }, preHandler: requireSignIn }, async (request) =>
    ok(await currentUser(app.ctx, signedIn(request).id), t(request, 'ok')),
  );
};
