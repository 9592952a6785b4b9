import type { Kysely } from 'kysely';
import { SETTINGS_FIELDS } from '../../src/domain/mqtt/payloads';
import type { MessageNotice } from '../../src/domain/live';
import type { AuditAction } from '../../src/domain/audit';
import { hasSettings, settingsOf, type Settings } from '../../src/resources/devices/requests';
import { canonicalSettings, type SettingRequestRecord } from '../../src/resources/setting-requests/requests';
import { accountsAbove, superAdministratorsBut } from '../accounts/reach';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import type { DB, DeviceRow } from '../db/schema';
import { refuseAboveRating, typeRating } from '../device-types/rating';
import { reportedSettings } from '../devices/commands';
import { badInput, notFound } from '../http/envelope';
import { announceMessages, postMessages } from '../messages/post';
import { resolveTodos } from '../messages/todos';
import { deviceScope, type Viewer } from '../scope/service';
import { readRequest, requestScope, settingsHash } from './list';

/**
 * Requesting, amending and cancelling a settings change (docs/approval.md); deciding is ./decide.ts. Each
 * change is one transaction with its audit entry and the messages it makes, announced after the commit.
 */

export type RequestContext = Pick<AppContext, 'db' | 'kind' | 'now' | 'live'>;

/** The settings as a short text for a todo: `SP 1.4, ST 60`. */
const settingsText = (settings: Partial<Settings>): string => canonicalSettings(settings).map(([field, value]) => `${field} ${String(value)}`).join(', ');

/** No setting at all is 40000 naming the five fields; an SP above the type's rating 40000 naming SP (as a settings command). */
const checkSettings = async (trx: Kysely<DB>, ctx: RequestContext, type: number, settings: Partial<Settings>): Promise<void> => {
  if (!hasSettings(settings)) throw badInput('validation.required', { field: SETTINGS_FIELDS.join('/') });
  if (settings.SP !== undefined) refuseAboveRating(settings.SP, await typeRating(trx, type, ctx.kind === 'postgres'));
};

/**
 * Who may decide a request of `requester` on `deviceId`: every super administrator, and each first-level
 * administrator above the requester that manages the device (the accounts its todo goes to).
 */
const approversOf = async (db: Kysely<DB>, requester: number, deviceId: string): Promise<number[]> => {
  const approvers = await superAdministratorsBut(db, requester);
  for (const upper of await accountsAbove(db, requester)) {
    if (upper.level !== 1) continue;
    const manages = await db.selectFrom('account_devices').select('device_id').where('account_id', '=', upper.id).where('device_id', '=', deviceId).executeTakeFirst();
    if (manages !== undefined) approvers.push(upper.id);
  }
  return approvers;
};

/** For each setting asked for, the value the chamber last reported (null: never). */
const beforeOf = (device: DeviceRow, settings: Partial<Settings>) => {
  const reported = reportedSettings(device);
  return Object.fromEntries(canonicalSettings(settings).map(([field]) => [field, reported[field as keyof Settings] ?? null]));
};

const answer = async (ctx: RequestContext, viewer: Viewer, id: number): Promise<SettingRequestRecord> => {
  const record = await readRequest(ctx, viewer, id);
  if (record === undefined) throw notFound();
  return record;
};

/**
 * `POST /api/v1/setting-requests`: an administrator (the console: a lowUser) asks for a settings change on a device it manages (else 40400,
 * like a missing device). The settings are checked as a settings command's are; the request records, for each
 * setting, the value the chamber last reported, and each approver gets a todo.
 */
export const requestSettings = async (ctx: RequestContext, viewer: Viewer, actor: AuditActor, body: Partial<Settings> & { Id: string }): Promise<SettingRequestRecord> => {
  const settings = settingsOf(body);
  const at = ctx.now();
  const { id, notices } = await ctx.db.transaction().execute(async (trx) => {
    const scope = deviceScope(trx, viewer);
    const query = trx.selectFrom('devices').selectAll().where('devices.id', '=', body.Id).where('devices.removed_at', 'is', null);
    const device = await (scope === undefined ? query : query.where('devices.id', 'in', scope)).executeTakeFirst();
    if (device === undefined) throw notFound();
    await checkSettings(trx, ctx, device.type, settings);
    const before = beforeOf(device, settings);
    const hash = settingsHash(device.id, settings);
    const row = await trx
      .insertInto('setting_requests')
      .values({
        device_id: device.id,
        requested_by: viewer.id,
        requester_account: actor.account,
        requested_at: at,
        settings: JSON.stringify(canonicalSettings(settings)),
        before: JSON.stringify(before),
        settings_hash: hash,
        status: 'waiting',
        decided_by: null,
        decider_account: null,
        decided_at: null,
        meaning: null,
        signed_hash: null,
        cmd_id: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const requestId = Number(row.id);
    const params = { request: requestId, device: device.id, by: actor.account, settings: settingsText(settings) };
    const drafts = (await approversOf(trx, viewer.id, device.id)).map((account) => ({ account, kind: 'settingRequestAwaiting' as const, params, settingRequest: requestId }));
    const posted = await postMessages(trx, drafts, at);
    await recordAudit(trx, actor, { action: 'settingRequest.request', targetType: 'settingRequest', targetId: requestId, deviceId: device.id, before, after: { settings, settingsHash: hash } }, at);
    return { id: requestId, notices: posted };
  });
  announceMessages(ctx, notices);
  return answer(ctx, viewer, id);
};

/** A request the viewer reads (and, with `requester`, made itself), else 40400 as for a missing one. */
export const visibleRequest = async (trx: Kysely<DB>, viewer: Viewer, id: number, requester?: number) => {
  const row = await requestScope(trx, viewer).selectAll('r').where('r.id', '=', id).executeTakeFirst();
  if (row === undefined || (requester !== undefined && row.requested_by !== requester)) throw notFound();
  return row;
};

type WaitingColumns = Partial<Record<'status' | 'settings' | 'before' | 'settings_hash' | 'decider_account' | 'meaning' | 'signed_hash' | 'cmd_id', string>> &
  Partial<Record<'decided_by' | 'decided_at', number>>;

/**
 * Changes a request that is still waiting, with a conditional update (which also locks it): 40000 naming its
 * status when it is decided or cancelled already, and, with `signed`, naming settingsHash when its settings
 * are no longer the ones signed.
 */
export const changeWaiting = async (trx: Kysely<DB>, id: number, columns: WaitingColumns, signed?: string) => {
  const update = trx.updateTable('setting_requests').set(columns).where('id', '=', id).where('status', '=', 'waiting');
  const changed = await (signed === undefined ? update : update.where('settings_hash', '=', signed)).returningAll().executeTakeFirst();
  if (changed !== undefined) return changed;
  const now = await trx.selectFrom('setting_requests').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  if (now.status !== 'waiting') throw badInput('settingRequest.notWaiting', { id, status: now.status });
  throw badInput('settingRequest.changed', { id, field: 'settingsHash' });
};

const ownChange = async (
  ctx: RequestContext,
  viewer: Viewer,
  actor: AuditActor,
  id: number,
  change: (trx: Kysely<DB>) => Promise<{ action: AuditAction; deviceId: string; before: unknown; after: unknown; notices: MessageNotice[] }>,
): Promise<SettingRequestRecord> => {
  const at = ctx.now();
  const notices = await ctx.db.transaction().execute(async (trx) => {
    const done = await change(trx);
    await recordAudit(trx, actor, { action: done.action, targetType: 'settingRequest', targetId: id, deviceId: done.deviceId, before: done.before, after: done.after }, at);
    return done.notices;
  });
  announceMessages(ctx, notices);
  return answer(ctx, viewer, id);
};

/** `POST .../:id/cancel`: the requester withdraws its waiting request; its todos are done. */
export const cancelRequest = (ctx: RequestContext, viewer: Viewer, actor: AuditActor, id: number) =>
  ownChange(ctx, viewer, actor, id, async (trx) => {
    await visibleRequest(trx, viewer, id, viewer.id);
    const row = await changeWaiting(trx, id, { status: 'cancelled' });
    return { action: 'settingRequest.cancel', deviceId: row.device_id, before: { status: 'waiting' }, after: { status: 'cancelled' }, notices: await resolveTodos(trx, 'settingRequest', id, ctx.now()) };
  });

/**
 * `POST .../:id/amend`: the requester changes the settings of its waiting request. The settings hash changes
 * with them, so an approver who opened the request before must read it again before signing.
 */
export const amendRequest = (ctx: RequestContext, viewer: Viewer, actor: AuditActor, id: number, body: Partial<Settings>) =>
  ownChange(ctx, viewer, actor, id, async (trx) => {
    const settings = settingsOf(body);
    const current = await visibleRequest(trx, viewer, id, viewer.id);
    const device = await trx.selectFrom('devices').selectAll().where('id', '=', current.device_id).executeTakeFirst();
    if (device === undefined) throw notFound();
    await checkSettings(trx, ctx, device.type, settings);
    const hash = settingsHash(current.device_id, settings);
    const row = await changeWaiting(trx, id, { settings: JSON.stringify(canonicalSettings(settings)), before: JSON.stringify(beforeOf(device, settings)), settings_hash: hash });
    return {
      action: 'settingRequest.amend',
      deviceId: row.device_id,
      before: { settings: Object.fromEntries(JSON.parse(current.settings) as [string, unknown][]), settingsHash: current.settings_hash },
      after: { settings, settingsHash: hash },
      notices: [],
    };
  });
