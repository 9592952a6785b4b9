import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAlarm } from '../../server/alarms/store';
import { SYSTEM_ACTOR } from '../../server/audit/trail';
import type { AlarmDelivery, NotificationPreferences } from '../../src/domain/notifications';
import { demoTokens, seedFleet, T0, type DemoName } from './fleet';
import { httpReceiver, smtpReceiver, type HttpReceiver, type SmtpReceiver } from './receivers';
import { fakeClock, MINUTE, STORE_KINDS, useStore } from './stores';

/**
 * Notifications beyond the console (docs/notifications.md) on both stores, against real receivers: a local
 * SMTP server and local HTTP endpoints check each channel's format and signature; escalation follows a test
 * clock; redelivery, a second instance and a restart send each notification once.
 *   The fleet: admin → first → second → client; OC-A1 is assigned to first, second and client, OC-B1 to first.
 */

const PUBLIC_URL = 'https://oxygen.example.com';
const ENV = { CONSOLE_PUBLIC_URL: PUBLIC_URL, NOTIFY_LOCALE: 'en-US', NOTIFY_TIMEOUT_SECONDS: '1' };

describe.each(STORE_KINDS)('notifications (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60 * MINUTE);
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;
  let hook: HttpReceiver;
  let smtp: SmtpReceiver;

  beforeEach(async () => {
    await store.wipe();
    await seedFleet(store.context());
    app = await store.app({ now: clock.now, env: ENV });
    tokens = await demoTokens(app);
    hook = await httpReceiver();
    smtp = await smtpReceiver();
  });
  afterEach(async () => {
    await app.notifications.idle();
    await Promise.all([hook.close(), smtp.close()]);
  });

  const rest = async (who: DemoName, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, on = app) => {
    const response = await on.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${tokens[who]}`, 'accept-language': 'en-US', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, json: () => response.json<Record<string, unknown>>(), body: response.body };
  };
  const created = async (channel: Record<string, unknown>): Promise<number> => {
    const response = await rest('admin', 'POST', '/notification-channels', channel);
    expect(response.status, response.body).toBe(201);
    return Number(response.json().id);
  };
  const emailChannel = () => created({ name: 'Ward mail', type: 'email', enabled: true, host: '127.0.0.1', port: smtp.port, tls: false, user: 'robot', from: 'alarms@example.com', secret: 'smtp-pass-1' });
  const webhook = (type: string, path: string, secret?: string) =>
    created({ name: `${type} hook`, type, enabled: true, url: `${hook.url}${path}?key=robot-key`, ...(secret === undefined ? {} : { secret }) });
  const subscribe = async (who: DemoName, preferences: NotificationPreferences) => {
    const response = await rest(who, 'PUT', '/notification-preferences', preferences);
    expect(response.status, response.body).toBe(200);
  };
  const raise = (deviceId: string, priority: 'high' | 'medium' | 'low' = 'high', value = 23.6, threshold = 23.5) =>
    app.ctx.db.transaction().execute(async (trx) => {
      const row = await openAlarm(trx, { deviceId, kind: 'o2-high', priority, state: 'active-unacked', value, threshold }, SYSTEM_ACTOR, clock.now());
      return Number(row?.id);
    });
  const deliver = async (on = app) => {
    await on.notifications.round();
    await on.notifications.idle();
  };
  const deliveries = async (id: number, who: DemoName = 'admin') => (await rest(who, 'GET', `/alarms/${id}/notifications`)).json() as unknown as AlarmDelivery[];

  it('an admin keeps channels whose secrets never read back, and names what a channel lacks', async () => {
    const id = await emailChannel();
    const listed = await rest('admin', 'GET', `/notification-channels/${id}`);
    expect(listed.json()).toMatchObject({ name: 'Ward mail', type: 'email', secret: '••••', port: smtp.port });
    expect(listed.body).not.toContain('smtp-pass-1');
    // The form sends the mask back: the password saved stays.
    const edited = await rest('admin', 'PUT', `/notification-channels/${id}`, { ...listed.json(), name: 'Ward mail 2' });
    expect(edited.status, edited.body).toBe(200);
    const row = await app.ctx.db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Ward mail 2', secret: '••••', secret_value: 'smtp-pass-1' });
    const hookId = await webhook('wecom', '/wecom');
    expect((await rest('admin', 'GET', `/notification-channels/${hookId}`)).json().url).toBe(`${hook.url}/••••`);
    const trail = await app.ctx.db.selectFrom('audit_log').select(['action', 'after']).where('action', 'like', 'notification-channels.%').execute();
    expect(trail.map((entry) => entry.action).sort()).toEqual(['notification-channels.create', 'notification-channels.create', 'notification-channels.edit']);
    expect(JSON.stringify(trail)).not.toMatch(/smtp-pass-1|robot-key/);

    const missing = await rest('admin', 'POST', '/notification-channels', { name: 'No URL', type: 'slack', enabled: true });
    expect(missing.status).toBe(400);
    expect(missing.json().message).toBe('url is required for this channel type');
    expect((await rest('first', 'GET', '/notification-channels')).status).toBe(403);
  });

  it('"send test" reports what the receiver answered', async () => {
    const mail = await emailChannel();
    expect((await rest('admin', 'POST', `/notification-channels/${mail}/test`, { to: 'me@example.com' })).json()).toMatchObject({ ok: true, answer: expect.stringContaining('250') as string });
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]).toMatchObject({ from: 'alarms@example.com', to: ['me@example.com'], user: 'robot' });
    expect(smtp.mails[0]?.data).toContain('The channel Ward mail works.');

    const ding = await webhook('dingtalk', '/ding', 'SEC-ding');
    hook.answer = () => ({ status: 200, body: '{"errcode":310000,"errmsg":"sign not match"}' });
    expect((await rest('admin', 'POST', `/notification-channels/${ding}/test`)).json()).toEqual({ ok: false, answer: '200 {"errcode":310000,"errmsg":"sign not match"}' });
  });

  it('an alarm reaches, in each format, the accounts that see its device on the channels they chose', async () => {
    const mail = await emailChannel();
    const signed = await webhook('webhook', '/signed', 'hmac-secret');
    const wecom = await webhook('wecom', '/wecom');
    const ding = await webhook('dingtalk', '/ding', 'SEC-ding');
    const slack = await webhook('slack', '/slack');
    hook.answer = (request) => ({ status: 200, body: request.path === '/slack' ? 'ok' : '{"errcode":0,"errmsg":"ok"}' });
    const all = (priorities: NotificationPreferences['subscriptions'][number]['priorities']) =>
      [signed, wecom, ding, slack].map((channelId) => ({ channelId, priorities }));
    await subscribe('first', { subscriptions: [{ channelId: mail, priorities: ['high'], address: 'first@example.com' }, ...all(['high'])], quietHours: null });
    // second does not see OC-B1: nothing for it, whatever it chose.
    await subscribe('second', { subscriptions: [{ channelId: mail, priorities: ['high', 'medium', 'low'], address: 'second@example.com' }], quietHours: null });

    const id = await raise('OC-B1');
    await deliver();

    expect(smtp.mails.map((message) => message.to)).toEqual([['first@example.com']]);
    const text = smtp.mails[0]?.data ?? '';
    for (const fact of ['Chamber: South One (OC-B1)', 'Site: Hall B', 'cabin oxygen high, High priority', 'Value 23.6% against limit 23.5%', `${PUBLIC_URL}/alarms/${id}/show`]) {
      expect(text).toContain(fact);
    }

    const byPath = (path: string) => hook.requests.filter((request) => request.path === path);
    const [generic] = byPath('/signed');
    expect(createHmac('sha256', 'hmac-secret').update(generic?.body ?? '').digest('hex')).toBe(String(generic?.headers['x-oxygen-signature']).replace('sha256=', ''));
    expect(JSON.parse(generic?.body ?? '')).toMatchObject({
      event: 'raised',
      alarm: { id, device: 'OC-B1', chamber: 'South One', site: 'Hall B', kind: 'o2-high', priority: 'high', value: 23.6, threshold: 23.5, unit: '%' },
      link: `${PUBLIC_URL}/alarms/${id}/show`,
    });
    expect(JSON.parse(byPath('/wecom')[0]?.body ?? '')).toMatchObject({ msgtype: 'markdown', markdown: { content: expect.stringContaining('Site: Hall B') as string } });
    const dingRequest = byPath('/ding')[0];
    const timestamp = Number(dingRequest?.query.get('timestamp'));
    expect(dingRequest?.query.get('sign')).toBe(createHmac('sha256', 'SEC-ding').update(`${timestamp}\nSEC-ding`).digest('base64'));
    expect(JSON.parse(dingRequest?.body ?? '')).toMatchObject({ msgtype: 'markdown', markdown: { title: 'High priority alarm: cabin oxygen high on OC-B1' } });
    expect(JSON.parse(byPath('/slack')[0]?.body ?? '')).toMatchObject({ text: 'High priority alarm: cabin oxygen high on OC-B1' });
    expect(hook.requests).toHaveLength(4);

    const outcomes = await deliveries(id, 'first');
    expect(outcomes).toHaveLength(5);
    expect(outcomes.every((delivery) => delivery.status === 'sent' && delivery.attempts === 1)).toBe(true);
    expect(outcomes.find((delivery) => delivery.channelType === 'email')?.recipient).toBe('f•••@example.com');
    expect((await rest('second', 'GET', `/alarms/${id}/notifications`)).status).toBe(404);
  });

  it('quiet hours hold back all but high alarms', async () => {
    const mail = await emailChannel();
    // 09:00 UTC at the clock's start: 17:00 at +08:00, inside 16:00–08:00.
    await subscribe('first', { subscriptions: [{ channelId: mail, priorities: ['high', 'medium'], address: 'first@example.com' }], quietHours: { from: 16 * 60, to: 8 * 60, utcOffset: 8 * 60 } });
    await raise('OC-A1', 'medium', 23.1, 23);
    await raise('OC-B1', 'high');
    await deliver();
    expect(smtp.mails.map((message) => /Subject: (.*)/.exec(message.data)?.[1])).toEqual(['High priority alarm: cabin oxygen high on OC-B1']);
  });

  it('an unacknowledged alarm escalates level by level to the super administrator, on the clock; acknowledging stops it', async () => {
    const mail = await emailChannel();
    for (const who of ['admin', 'first', 'second', 'client'] as const) {
      await subscribe(who, { subscriptions: [{ channelId: mail, priorities: ['high', 'medium'], address: `${who}@example.com` }], quietHours: null });
    }
    // OC-C2 is the client's alone: above it are second, first, then the super administrator.
    const clientId = (await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', 'client').executeTakeFirstOrThrow()).id;
    await app.ctx.db.insertInto('account_devices').values({ account_id: clientId, device_id: 'OC-C2', created_at: T0 }).execute();
    const id = await raise('OC-C2');
    await deliver();
    const told = () => smtp.mails.map((message) => message.to[0]);
    expect(told().sort()).toEqual(['admin@example.com', 'client@example.com']);

    clock.advance(2 * MINUTE - 1000);
    await deliver();
    expect(told()).toHaveLength(2);
    for (const next of ['second', 'first', 'admin']) {
      clock.advance(2 * MINUTE);
      await deliver();
      expect(told().at(-1)).toBe(`${next}@example.com`);
      expect(smtp.mails.at(-1)?.data).toContain('Not acknowledged for');
    }
    clock.advance(10 * MINUTE);
    await deliver();
    expect(told()).toHaveLength(5);
    const history = (await rest('admin', 'GET', `/alarms/${id}/history`)).json() as unknown as { comment: string }[];
    expect(history.map((row) => row.comment).slice(1)).toEqual(['↑1 · second', '↑2 · first', '↑3 · admin']);
    const escalated = await app.ctx.db.selectFrom('audit_log').select('target_id').where('action', '=', 'alarm.escalate').execute();
    expect(escalated).toHaveLength(3);

    // A second alarm acknowledged within its time never escalates.
    const other = await raise('OC-A1');
    await deliver();
    const before = told().length;
    expect((await rest('client', 'POST', `/alarms/${other}/ack`, {})).status).toBe(200);
    clock.advance(30 * MINUTE);
    await deliver();
    expect(told()).toHaveLength(before);
    expect(await app.ctx.db.selectFrom('alarm_escalations').selectAll().execute()).toEqual([]);
  });

  it('a failed delivery is retried with backoff, then given up; the alarm page shows each outcome', async () => {
    const signed = await webhook('webhook', '/signed', 'k');
    await subscribe('first', { subscriptions: [{ channelId: signed, priorities: ['high'] }], quietHours: null });
    hook.answer = () => ({ status: 503, body: 'busy' });
    const id = await raise('OC-B1');
    await deliver();
    expect(await deliveries(id)).toMatchObject([{ status: 'pending', attempts: 1, answer: '503 busy' }]);
    await deliver();
    expect(hook.requests).toHaveLength(1);
    clock.advance(5000);
    hook.answer = () => ({ status: 200, body: 'ok' });
    await deliver();
    expect(await deliveries(id)).toMatchObject([{ status: 'sent', attempts: 2, answer: '200 ok' }]);
    // The retry is the same delivery: a receiver may drop a repeat by its id.
    expect(new Set(hook.requests.map((request) => request.headers['x-oxygen-delivery'])).size).toBe(1);

    hook.answer = () => ({ status: 500, body: 'down' });
    const failing = await raise('OC-A1');
    for (let round = 0; round < 13; round += 1) {
      await deliver();
      clock.advance(5 * MINUTE);
    }
    // Past NOTIFY_GIVE_UP_MINUTES (60): the sessions of the start have lapsed meanwhile.
    tokens = await demoTokens(app);
    expect(await deliveries(failing)).toMatchObject([{ status: 'failed', answer: '500 down' }]);
  });

  it('two instances and a restart send each notification once; a receiver that never answers holds nothing else up', async () => {
    const signed = await webhook('webhook', '/signed', 'k');
    const dead = await webhook('slack', '/dead');
    await subscribe('first', { subscriptions: [signed, dead].map((channelId) => ({ channelId, priorities: ['high'] })), quietHours: null });
    hook.answer = (request) => (request.path === '/dead' ? null : { status: 200, body: 'ok' });
    const other = await store.app({ now: clock.now, env: ENV });
    const ids: number[] = [];
    // first's four chambers.
    for (const device of ['OC-A1', 'OC-A2', 'OC-B1', 'OC-B2']) ids.push(await raise(device));
    const started = Date.now();
    await Promise.all([app.notifications.round(), other.notifications.round(), app.notifications.round(), other.notifications.round()]);
    // Claiming and starting the sends waits for no receiver.
    expect(Date.now() - started).toBeLessThan(900);
    await Promise.all([app.notifications.idle(), other.notifications.idle()]);
    // Each round claims what its free slots hold; the rounds after take the rest.
    for (let round = 0; round < 3; round += 1) {
      await Promise.all([app.notifications.round(), other.notifications.round()]);
      await Promise.all([app.notifications.idle(), other.notifications.idle()]);
    }
    const delivered = hook.requests.filter((request) => request.path === '/signed').map((request) => JSON.parse(request.body) as { alarm: { id: number } });
    expect(delivered.map((body) => body.alarm.id).sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b));

    // A restart: a new instance on the same store sends nothing again.
    await other.close();
    const restarted = await store.app({ now: clock.now, env: ENV });
    hook.answer = () => ({ status: 200, body: 'ok' });
    await deliver(restarted);
    expect(hook.requests.filter((request) => request.path === '/signed')).toHaveLength(4);
    const rows = await app.ctx.db.selectFrom('notification_outbox').select(['status', 'channel_id']).where('channel_id', '=', signed).execute();
    expect(rows.every((row) => row.status === 'sent')).toBe(true);
  });
});
