import type { FastifyPluginAsync } from 'fastify';
import {
  addAdminBodySchema,
  adminResetBodySchema,
  assignDevicesBodySchema,
  deleteAdminBodySchema,
  selfResetBodySchema,
  updateAdminBodySchema,
} from '../../src/resources/accounts/calls';
import { ACCOUNT_CALLS, accountsConfig } from '../../src/resources/accounts/config';
import { actorOf } from '../audit/actor';
import { requireAccess, signInGuard, signedIn } from '../auth/guard';
import { ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { upstreamPath } from '../lists/route';
import { addAdmin, adminResetCode, assignDevices, selfResetCode } from './calls';
import { deleteAdmin, updateAdmin } from './changes';

/**
 * Account calls of the upstream contract, relative to API_PREFIX (docs/server-accounts.md); paths from
 * the accounts configuration, aliases in server/upstream.ts (the list, `POST /get_Admins`, is
 * registered from server/resources/registry.ts):
 *   POST /add_Admin                { Account, Code, Level, DeviceIds? } → the new account (accounts/create)
 *   POST /code/Admin_reset_Code    { Account } → { NewCode } (accounts/resetPassword)
 *   POST /code/self_reset_Code     { OldCode, NewCode } → null (any signed-in account, also one that
 *                                  must change its password: this is how it gets out of that state)
 *   POST /assign_Devices           { Account, DeviceIds } → the account (accounts/assignDevices)
 *   POST /update_Admin             { Account, Level?, SubAdmin?, Disabled? } → the account (accounts/edit)
 *   POST /delete_Admin             { Account } → null (accounts/delete)
 * Guards run in onRequest: a caller not signed in (50008) or not allowed (40300) learns nothing about
 * the body.
 */
export const accountRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const resource = accountsConfig.name;

  app.post(
    upstreamPath(accountsConfig, 'create'),
    { schema: { body: addAdminBodySchema }, onRequest: requireAccess({ resource, action: 'create' }) },
    async (request) => ok(await addAdmin(app.ctx, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );

  app.post(
    ACCOUNT_CALLS.resetPassword,
    { schema: { body: adminResetBodySchema }, onRequest: requireAccess({ resource, action: 'resetPassword' }) },
    async (request) => ok(await adminResetCode(app.ctx, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );

  app.post(
    ACCOUNT_CALLS.changeOwnPassword,
    { schema: { body: selfResetBodySchema }, onRequest: signInGuard({ allowMustChangeCode: true }) },
    async (request) => {
      await selfResetCode(app.ctx, signedIn(request), actorOf(request), request.body);
      return ok(null, t(request, 'ok'));
    },
  );

  app.post(
    ACCOUNT_CALLS.assignDevices,
    { schema: { body: assignDevicesBodySchema }, onRequest: requireAccess({ resource, action: 'assignDevices' }) },
    async (request) => ok(await assignDevices(app.ctx, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );

  app.post(
    upstreamPath(accountsConfig, 'update'),
    { schema: { body: updateAdminBodySchema }, onRequest: requireAccess({ resource, action: 'edit' }) },
    async (request) => ok(await updateAdmin(app.ctx, signedIn(request), actorOf(request), request.body), t(request, 'ok')),
  );

  app.post(
    upstreamPath(accountsConfig, 'delete'),
    { schema: { body: deleteAdminBodySchema }, onRequest: requireAccess({ resource, action: 'delete' }) },
    async (request) => {
      await deleteAdmin(app.ctx, signedIn(request), actorOf(request), request.body);
      return ok(null, t(request, 'ok'));
    },
  );
};
