import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyAck } from '../../server/commands/acks';
import { createAccount } from '../../server/accounts/service';
import type { MessageListAnswer } from '../../src/domain/messages';
import type { OperationLogRow, ProfileBasic, SettingRequestRecord } from '../../src/resources/setting-requests/requests';
import { recordingLink, type RecordingLink } from './device-command-fakes';
import { T0, demoTokens, seedFleet, type DemoName } from './fleet';
import { call, DEMO, envelope } from './http';
import { fakeClock, STORE_KINDS, useStore } from './stores';

/**
 * Parameter approval (docs/approval.md) on both stores: who may request, read, decide and cancel; the todos
 * of the approvers resolving themselves; the signature (password again, meaning, bound to the settings);
 * a wrong password refused, audited and throttled; a request decided once and its command sent once; the
 * old console's basic profile calls answered from the request.
 */
describe.each(STORE_KINDS)('settings requests (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  let app: FastifyInstance;
  let tokens: Record<DemoName | 'outsider', string>;
  let link: RecordingLink;

  /** The fleet, an outside second-level administrator (under admin, managing OC-C1), and an app on `env`. */
  const start = async (env: Record<string, string> = {}) => {
    app = await store.app({ now: clock.now, env });
    link = recordingLink();
    app.ctx.link = link;
    const login = await call(app, '/login', { Account: 'outsider', Code: 'Outsider2026' });
    tokens = { ...(await demoTokens(app)), outsider: envelope<{ token: string }>(login).data.token };
  };
  beforeEach(async () => {
    await store.wipe();
    const ctx = store.context();
    await seedFleet(ctx);
    const admin = await ctx.db.selectFrom('accounts').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow();
    const outsider = await createAccount(ctx, { account: 'outsider', password: 'Outsider2026', level: 2, subId: admin.id });
    await ctx.db.insertInto('account_devices').values({ account_id: outsider.id, device_id: 'OC-C1', created_at: T0 }).execute();
  });

  const rest = async (method: 'GET' | 'POST', url: string, who: keyof typeof tokens, body?: unknown, lang = 'en-US') => {
    const response = await app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${tokens[who]}`, 'accept-language': lang, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: response.json<unknown>() };
  };
  const requestOf = async (who: keyof typeof tokens, body: unknown) => {
    const answer = await rest('POST', '/setting-requests', who, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as SettingRequestRecord;
  };
  const read = async (who: keyof typeof tokens, id: number) => (await rest('GET', `/setting-requests/${id}`, who)).body as SettingRequestRecord;
  const listed = async (who: keyof typeof tokens) => ((await rest('GET', '/setting-requests', who)).body as SettingRequestRecord[]).map((r) => r.id).sort();
  const sign = (who: keyof typeof tokens, id: number, path: 'approve' | 'reject', settingsHash: string, password: string = DEMO[who as DemoName].Code, meaning = path === 'approve' ? 'approval' : 'rejection') =>
    rest('POST', `/setting-requests/${id}/${path}`, who, { password, meaning, settingsHash });
  const todos = async (who: DemoName) => {
    const box = envelope<MessageListAnswer>(await call(app, '/api/message/list', { filter: { type: 'todo' } }, { token: tokens[who], lang: 'en-US' })).data;
    return { unread: box.unread.todo, titles: box.list.filter((m) => m.status === 0).map((m) => m.title) };
  };
  const audit = (action: string) => store.context().db.selectFrom('audit_log').select(['actor_account', 'target_id']).where('action', '=', action).orderBy('id').execute();

  it('lets an administrator request on a device it manages, not a client; reads follow the subtree and the devices', async () => {
    await start();
    const mine = await requestOf('second', { Id: 'OC-A2', SP: 1.3, ST: 60 });
    expect(mine).toMatchObject({ deviceId: 'OC-A2', status: 'waiting', requester: 'second', settings: { SP: 1.3, ST: 60 }, before: { SP: null, ST: null }, signature: null });
    expect(mine.settingsHash).toMatch(/^[0-9a-f]{64}$/);
    const theirs = await requestOf('outsider', { Id: 'OC-C1', SS: 'M' });
    expect((await rest('POST', '/setting-requests', 'client', { Id: 'OC-A2', SP: 1.3 })).status).toBe(403);
    // A device it does not manage is answered like a missing one; a set point above the type's rating is refused.
    const out = await rest('POST', '/setting-requests', 'second', { Id: 'OC-B1', SP: 1.3 });
    const missing = await rest('POST', '/setting-requests', 'second', { Id: 'OC-ZZ', SP: 1.3 });
    expect(out).toEqual({ status: 404, body: missing.body });
    expect((await rest('POST', '/setting-requests', 'second', { Id: 'OC-A1', SP: 2.5 })).body).toMatchObject({ code: 40000, message: expect.stringContaining('SP must be at most 1.3 ATA') });
    expect(await listed('admin')).toEqual([mine.id, theirs.id].sort());
    expect(await listed('first')).toEqual([mine.id]);
    expect(await listed('second')).toEqual([mine.id]);
    expect(await listed('outsider')).toEqual([theirs.id]);
    expect((await rest('GET', '/setting-requests', 'client')).status).toBe(403);
    expect((await rest('GET', `/setting-requests/${theirs.id}`, 'first')).status).toBe(404);
    // first is not above the outsider: deciding its request is not found, and nothing is checked.
    expect((await sign('first', theirs.id, 'approve', theirs.settingsHash)).status).toBe(404);
    expect((await sign('second', mine.id, 'approve', mine.settingsHash)).status).toBe(403);
    expect(await audit('settingRequest.request')).toEqual([
      { actor_account: 'second', target_id: String(mine.id) },
      { actor_account: 'outsider', target_id: String(theirs.id) },
    ]);
  });

  it('approves with a signature once: the command is sent once, the todos of every approver are done, the outcome follows the ack', async () => {
    await start();
    const mine = await requestOf('second', { Id: 'OC-A2', SP: 1.3 });
    expect((await todos('first')).titles).toEqual(['To approve: settings of OC-A2, requested by second']);
    expect((await todos('admin')).unread).toBe(1);
    expect((await todos('second')).unread).toBe(0);
    clock.advance(5_000);
    const signed = await sign('first', mine.id, 'approve', mine.settingsHash, 'First2026', 'review');
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const approved = signed.body as SettingRequestRecord;
    expect(approved).toMatchObject({ status: 'approved', decidedBy: 'first', decidedAt: clock.now(), meaning: 'review', commandStatus: 'sent' });
    expect(approved.signature).toEqual({ signer: 'first', signedAt: clock.now(), meaning: 'review', settingsHash: mine.settingsHash, valid: true });
    expect(link.sent).toEqual([{ deviceId: 'OC-A2', command: expect.objectContaining({ type: 'settings', SP: 1.3, cmdId: approved.cmdId }) }]);
    expect((await todos('first')).unread).toBe(0);
    expect((await todos('admin')).unread).toBe(0);
    // Decided once: another approver's signature, or a rejection, is refused and sends nothing.
    expect((await sign('admin', mine.id, 'approve', mine.settingsHash)).body).toMatchObject({ code: 40000, message: `request ${mine.id} is approved already: it can no longer be decided, amended or cancelled` });
    expect((await sign('first', mine.id, 'reject', mine.settingsHash)).status).toBe(400);
    expect(link.sent).toHaveLength(1);
    await applyAck(app.ctx, 'OC-A2', { cmdId: String(approved.cmdId), ok: true });
    expect(await read('second', mine.id)).toMatchObject({ commandStatus: 'acked' });
    expect(await audit('settingRequest.approve')).toEqual([{ actor_account: 'first', target_id: String(mine.id) }]);
    const box = envelope<MessageListAnswer>(await call(app, '/api/message/list', { filter: { type: 'message' } }, { token: tokens.second, lang: 'en-US' })).data;
    expect(box.list.map((m) => m.title)).toContain('Approved: settings of OC-A2');
  });

  it('binds the signature to the settings: an amended request needs a new one, and a changed row no longer carries it', async () => {
    await start();
    const first = await requestOf('second', { Id: 'OC-A2', SP: 1.3 });
    const amended = (await rest('POST', `/setting-requests/${first.id}/amend`, 'second', { SP: 1.2, SL: 1 })).body as SettingRequestRecord;
    expect(amended.settings).toEqual({ SP: 1.2, SL: 1 });
    expect(amended.settingsHash).not.toBe(first.settingsHash);
    const stale = await sign('first', first.id, 'approve', first.settingsHash);
    expect(stale.body).toMatchObject({ code: 40000, message: expect.stringContaining('settingsHash') });
    expect(link.sent).toEqual([]);
    expect((await sign('first', first.id, 'approve', amended.settingsHash)).status).toBe(200);
    expect(link.sent.map(({ command }) => command)).toEqual([expect.objectContaining({ SP: 1.2, SL: 1 })]);
    await store.context().db.updateTable('setting_requests').set({ settings: JSON.stringify([['SP', 1.4]]) }).where('id', '=', first.id).execute();
    expect((await read('admin', first.id)).signature).toMatchObject({ signer: 'first', valid: false });
  });

  it('refuses a wrong password, audits it and counts it as a failed sign-in, until the signer is throttled', async () => {
    await start({ LOGIN_FAILURES_PER_PAIR_PER_HOUR: '2' });
    const mine = await requestOf('second', { Id: 'OC-A2', ST: 90 });
    const wrong = await sign('first', mine.id, 'approve', mine.settingsHash, 'Guess2026', 'approval');
    expect(wrong).toEqual({ status: 400, body: { code: 40000, message: 'the password is wrong: the signature was refused (password)' } });
    const zh = await rest('POST', `/setting-requests/${mine.id}/reject`, 'first', { password: 'Guess2027', meaning: 'rejection', settingsHash: mine.settingsHash }, 'zh-CN');
    expect(zh.body).toMatchObject({ message: '密码错误，签名被拒绝（password）' });
    expect(await audit('settingRequest.signatureRefused')).toEqual([
      { actor_account: 'first', target_id: String(mine.id) },
      { actor_account: 'first', target_id: String(mine.id) },
    ]);
    const failures = await store.context().db.selectFrom('sign_in_attempts').select(['account', 'succeeded']).where('succeeded', '=', 0).execute();
    expect(failures).toEqual([
      { account: 'first', succeeded: 0 },
      { account: 'first', succeeded: 0 },
    ]);
    // At the pair's limit even the right password is not checked; nothing was decided or sent.
    expect((await sign('first', mine.id, 'approve', mine.settingsHash)).body).toMatchObject({ code: 42900 });
    expect(await read('first', mine.id)).toMatchObject({ status: 'waiting', signature: null });
    expect(link.sent).toEqual([]);
    expect((await call(app, '/login', { Account: 'first', Code: 'First2026' })).json()).toMatchObject({ code: 42900 });
  });

  it('lets the requester cancel before the decision, resolving the todos; a rejection is signed with its meaning', async () => {
    await start();
    const mine = await requestOf('second', { Id: 'OC-A1', SS: 'S' });
    expect((await rest('POST', `/setting-requests/${mine.id}/cancel`, 'first')).status).toBe(404);
    expect((await rest('POST', `/setting-requests/${mine.id}/cancel`, 'second')).body).toMatchObject({ status: 'cancelled' });
    expect((await todos('first')).unread).toBe(0);
    expect((await sign('first', mine.id, 'approve', mine.settingsHash)).body).toMatchObject({ message: expect.stringContaining('is cancelled already') });
    expect((await rest('POST', `/setting-requests/${mine.id}/cancel`, 'second')).status).toBe(400);
    const next = await requestOf('second', { Id: 'OC-A1', SS: 'F' });
    expect((await sign('admin', next.id, 'reject', next.settingsHash, 'Admin2026', 'approval')).status).toBe(400);
    const rejected = (await sign('admin', next.id, 'reject', next.settingsHash)).body as SettingRequestRecord;
    expect(rejected).toMatchObject({ status: 'rejected', cmdId: null, signature: { signer: 'admin', meaning: 'rejection', valid: true } });
    expect((await rest('POST', `/setting-requests/${next.id}/amend`, 'second', { SS: 'M' })).status).toBe(400);
    expect(link.sent).toEqual([]);
  });

  it('answers the old console basic profile and operation log from the request and its audit entries', async () => {
    await start();
    const mine = await requestOf('second', { Id: 'OC-A2', SP: 1.3 });
    const basic = envelope<ProfileBasic>(await call(app, '/api/profile/basic', { id: mine.id }, { token: tokens.first, lang: 'en-US' })).data;
    expect(basic).toMatchObject({ status: 2, current: { SP: 1.3 }, origin: { SP: null }, request: { id: mine.id } });
    const approved = (await sign('first', mine.id, 'approve', mine.settingsHash)).body as SettingRequestRecord;
    await applyAck(app.ctx, 'OC-A2', { cmdId: String(approved.cmdId), ok: true });
    const newest = await app.inject({ method: 'GET', url: '/upstream/api/profile/basic', headers: { authorization: `Bearer ${tokens.second}` } });
    expect(envelope<ProfileBasic>(newest).data).toMatchObject({ status: 3, request: { id: mine.id, status: 'approved' } });
    const log = envelope<OperationLogRow[]>(await call(app, '/api/operation/log', { id: mine.id }, { token: tokens.second, lang: 'en-US' })).data;
    expect(log.map(({ action, actor, status }) => ({ action, actor, status }))).toEqual([
      { action: 'settingRequest.request', actor: 'second', status: 1 },
      { action: 'settingRequest.approve', actor: 'first', status: 1 },
      { action: 'device.changeSettings', actor: 'first', status: 1 },
      { action: 'device.commandAcked', actor: 'first', status: 1 },
    ]);
    expect(log[0]).toMatchObject({ contentNumber: `OC-A2 #${mine.id}`, updateContent: 'settings change requested (second)', updateTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    expect(envelope(await call(app, '/api/operation/log', { id: mine.id }, { token: tokens.outsider })).data).toEqual([]);
    expect(envelope(await call(app, '/api/profile/basic', {}, { token: tokens.client })).code).toBe(40300);
  });
});
