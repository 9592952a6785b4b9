import type { FastifyPluginAsync } from 'fastify';
import { basicInfoSchema, certificateBodySchema, certificateDecisionSchema, revokeSessionBodySchema, USER_SETTING_CALLS } from '../../src/domain/userSettings';
import { actorOf } from '../audit/actor';
import { requireAccess, requireSignIn, signedIn } from '../auth/guard';
import { noPayload } from '../auth/routes';
import { ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { readBasicInfo, saveBasicInfo } from './basicInfo';
import { certification, decideCertificate, pendingCertificates, submitCertificate } from './certificates';
import { openSessions, revokeSession } from './sessions';

/**
 * The user settings' calls of the upstream contract, relative to API_PREFIX (docs/user-settings.md); every
 * one is the signed-in caller's own, but deciding a certificate, which is an administrator's (policy
 * `certificates.approve`) about an account below it:
 *   POST /api/user/basic-info              → BasicInfo
 *   POST /api/user/save-info               BasicInfo → 'ok' (the old console's answer)
 *   POST /api/user/certification           → { enterpriseInfo, record } (the old console's shape)
 *   POST /api/user/certification/submit    { number, issuer, expiresOn } → the same
 *   POST /api/user/certification/pending   → PendingCertificate[] (administrators)
 *   POST /api/user/certification/decide    { account, pass } → null (administrators)
 *   POST /api/user/sessions                → OpenSession[]
 *   POST /api/user/sessions/revoke         { session } → null
 * `/api/user/upload` (the old console's avatar upload) is answered by the mocks only: the server keeps no uploads.
 */
export const userSettingRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const approver = requireAccess({ resource: 'certificates', action: 'approve' });

  app.post(USER_SETTING_CALLS.basicInfo, { schema: { body: noPayload }, onRequest: requireSignIn }, async (request) =>
    ok(await readBasicInfo(app.ctx, signedIn(request).id), t(request, 'ok')),
  );
  app.post(USER_SETTING_CALLS.saveInfo, { schema: { body: basicInfoSchema }, onRequest: requireSignIn }, async (request) => {
    await saveBasicInfo(app.ctx, signedIn(request), actorOf(request), request.body);
    return ok('ok', t(request, 'ok'));
  });
  app.post(USER_SETTING_CALLS.certification, { schema: { body: noPayload }, onRequest: requireSignIn }, async (request) =>
    ok(await certification(app.ctx, signedIn(request)), t(request, 'ok')),
  );
  app.post(USER_SETTING_CALLS.submitCertificate, { schema: { body: certificateBodySchema }, onRequest: requireSignIn }, async (request) =>
    ok(await submitCertificate(app.ctx, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );
  app.post(USER_SETTING_CALLS.pendingCertificates, { schema: { body: noPayload }, onRequest: approver }, async (request) =>
    ok(await pendingCertificates(app.ctx, signedIn(request)), t(request, 'ok')),
  );
  app.post(USER_SETTING_CALLS.decideCertificate, { schema: { body: certificateDecisionSchema }, onRequest: approver }, async (request) => {
    await decideCertificate(app.ctx, signedIn(request), actorOf(request), request.body);
    return ok(null, t(request, 'ok'));
  });
  app.post(USER_SETTING_CALLS.sessions, { schema: { body: noPayload }, onRequest: requireSignIn }, async (request) =>
    ok(await openSessions(app.ctx, signedIn(request)), t(request, 'ok')),
  );
  app.post(USER_SETTING_CALLS.revokeSession, { schema: { body: revokeSessionBodySchema }, onRequest: requireSignIn }, async (request) => {
    await revokeSession(app.ctx, signedIn(request), actorOf(request), request.body.session);
    return ok(null, t(request, 'ok'));
  });
};
