import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Locale } from '../../src/domain/locales';
import { AUDIT_LOG_CONFIG } from '../../src/resources/configs';
import { settingRequestsConfig } from '../../src/resources/setting-requests/config';
import { PROFILE_CALLS, profileStep, type OperationLogRow, type ProfileBasic, type SettingRequestRecord } from '../../src/resources/setting-requests/requests';
import { requireAccess, signedIn } from '../auth/guard';
import type { AppContext } from '../context';
import { languageOf, ok, t } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { numericIdOf } from '../rest/list';
import type { Viewer } from '../scope/service';
import { listRequests, readRequest } from './list';

/**
 * The old console's basic profile calls (its template's `api/profile/basic` and `api/operation/log`), under
 * API_PREFIX in the upstream envelope, answered from a real settings request (docs/approval.md, "The old
 * calls"): the request `id` given, else the newest the caller reads. Same rights as the request's own page.
 */

const query = z.strictObject({ id: numericIdOf(settingRequestsConfig).optional() }).nullish();

const pick = async (ctx: Pick<AppContext, 'db'>, viewer: Viewer, id: number | undefined): Promise<SettingRequestRecord | undefined> => {
  if (id !== undefined) return readRequest(ctx, viewer, id);
  const { list } = await listRequests(ctx, viewer, { current: 1, pageSize: 1, sort: { field: 'requestedAt', order: 'DESC' } });
  return list[0] as unknown as SettingRequestRecord | undefined;
};

/** `yyyy-MM-dd HH:mm:ss` in UTC, the template's own time format; `at` carries the instant for the console. */
const templateTime = (at: number): string => new Date(at).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The request's audit entries, oldest first: its own (requested, amended, decided, cancelled, refused
 * signatures) and those of the command its approval sent. Whoever reads the request reads its log.
 */
const operationLog = async (ctx: Pick<AppContext, 'db'>, language: Locale, request: SettingRequestRecord): Promise<OperationLogRow[]> => {
  const base = ctx.db.selectFrom('audit_log').select(['id', 'at', 'actor_account', 'action']);
  const own = base.where('target_type', '=', 'settingRequest').where('target_id', '=', String(request.id));
  const rows = await (request.cmdId === null
    ? own
    : own.union(base.where('device_id', '=', request.deviceId).where('after', 'like', `%"cmdId":"${request.cmdId}"%`))
  )
    .orderBy('id')
    .execute();
  const actions = AUDIT_LOG_CONFIG.labels[language].choices.action as Record<string, string>;
  return rows.map((row) => ({
    key: String(row.id),
    contentNumber: `${request.deviceId} #${request.id}`,
    updateContent: `${actions[row.action] ?? row.action} (${row.actor_account})`,
    status: row.action === 'settingRequest.request' || row.action === 'settingRequest.amend' ? (request.status === 'waiting' ? 0 : 1) : 1,
    updateTime: templateTime(Number(row.at)),
    at: Number(row.at),
    action: row.action,
    actor: row.actor_account,
  }));
};

const idOf = (request: FastifyRequest): number | undefined => {
  const source = (request.method === 'GET' ? request.query : request.body) as z.infer<typeof query>;
  return source?.id;
};

export const profileRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const guard = requireAccess({ resource: 'setting-requests', action: 'show' });
  const basic = async (request: FastifyRequest) => {
    const found = await pick(app.ctx, signedIn(request), idOf(request));
    const data: ProfileBasic | null =
      found === undefined ? null : { status: profileStep(found), request: found, current: found.settings, origin: found.before };
    return ok(data, t(request, 'ok'));
  };
  const log = async (request: FastifyRequest) => {
    const found = await pick(app.ctx, signedIn(request), idOf(request));
    return ok(found === undefined ? [] : await operationLog(app.ctx, languageOf(request), found), t(request, 'ok'));
  };
  app.get(PROFILE_CALLS.basic, { schema: { querystring: query }, onRequest: guard }, basic);
  app.post(PROFILE_CALLS.basic, { schema: { body: query }, onRequest: guard }, basic);
  app.get(PROFILE_CALLS.operationLog, { schema: { querystring: query }, onRequest: guard }, log);
  app.post(PROFILE_CALLS.operationLog, { schema: { body: query }, onRequest: guard }, log);
};
