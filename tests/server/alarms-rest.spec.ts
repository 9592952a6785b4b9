import { beforeEach, describe, expect, it } from 'vitest';
import type { AlarmRecord, AlarmTransition } from '../../src/domain/alarms/record';
import { SYSTEM_ACTOR } from '../../server/audit/trail';
import { sweepAlarms } from '../../server/alarms/sweep';
import { openAlarm } from '../../server/alarms/store';
import { T0, useFleetApp, type DemoName } from './fleet';
import { fakeClock, MINUTE, STORE_KINDS, useStore } from './stores';

/**
 * `/api/v1/alarms` and `/api/v1/alarm-rules` (docs/alarms.md, "REST" and "Rights") on both stores: the list
 * and its filters within the caller's scope, each action with its right, its state rule, its transition and
 * audit entry, shelving's limit and expiry, and an admin's rule edit.
 */
describe.each(STORE_KINDS)('the alarms API (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60 * MINUTE);
  const fleet = useFleetApp(store, clock.now);
  /** OC-A1 is in every demo account's scope; OC-C1 only in the super administrator's. */
  let inScope: number;
  let outOfScope: number;

  beforeEach(async () => {
    const db = store.context().db;
    const raise = async (deviceId: string, alarmKind: 'o2-high' | 'erd', priority: 'high' | 'medium') =>
      Number((await openAlarm(db, { deviceId, kind: alarmKind, priority, state: 'active-unacked', value: 23.6, threshold: 23.5 }, SYSTEM_ACTOR, clock.now()))?.id);
    inScope = await raise('OC-A1', 'o2-high', 'high');
    outOfScope = await raise('OC-C1', 'erd', 'medium');
  });

  const request = async (method: 'GET' | 'POST' | 'PUT', url: string, who: DemoName, body?: unknown, lang = 'en-US') => {
    const response = await fleet.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${fleet.tokens[who]}`, 'accept-language': lang, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, body: response.json<unknown>(), range: response.headers['content-range'] };
  };
  const list = async (who: DemoName, filter: Record<string, unknown> = {}) =>
    (await request('GET', `/alarms?filter=${encodeURIComponent(JSON.stringify(filter))}`, who)).body as AlarmRecord[];

  it('lists only the alarms of devices in the caller scope, with filters by priority, state, device, kind and time', async () => {
    expect((await list('admin')).map((alarm) => alarm.deviceId).sort()).toEqual(['OC-A1', 'OC-C1']);
    expect((await list('client')).map((alarm) => alarm.deviceId)).toEqual(['OC-A1']);
    expect((await list('admin', { priority: 'medium' })).map((alarm) => alarm.kind)).toEqual(['erd']);
    expect((await list('admin', { kind: 'o2-high', state: 'active-unacked', deviceId: 'OC-A1' })).map((alarm) => alarm.id)).toEqual([inScope]);
    expect(await list('admin', { raisedAt: { gte: clock.now() + 1 } })).toEqual([]);
    const one = await request('GET', `/alarms/${inScope}`, 'client');
    expect(one.body).toMatchObject({ id: inScope, deviceId: 'OC-A1', kind: 'o2-high', priority: 'high', state: 'active-unacked', value: 23.6, threshold: 23.5, ackedBy: null });
    // Out of scope is not found, like an alarm that does not exist, for every read and action.
    for (const [method, url, body] of [
      ['GET', `/alarms/${outOfScope}`, undefined],
      ['GET', `/alarms/${outOfScope}/history`, undefined],
      ['POST', `/alarms/${outOfScope}/ack`, {}],
    ] as const) {
      expect((await request(method, url, 'client', body)).status).toBe(404);
    }
  });

  it('acknowledges with a comment, keeps the transition with who and why, and audits it', async () => {
    const acked = await request('POST', `/alarms/${inScope}/ack`, 'client', { comment: 'occupant checked' });
    expect(acked.body).toMatchObject({ state: 'active-acked', ackedBy: 'client', ackedAt: clock.now(), comment: 'occupant checked' });
    const history = (await request('GET', `/alarms/${inScope}/history`, 'second')).body as AlarmTransition[];
    expect(history.map(({ from, to, actor, comment }) => ({ from, to, actor, comment }))).toEqual([
      { from: null, to: 'active-unacked', actor: 'system', comment: null },
      { from: 'active-unacked', to: 'active-acked', actor: 'client', comment: 'occupant checked' },
    ]);
    const audit = await store.context().db.selectFrom('audit_log').select(['action', 'actor_account', 'device_id']).where('target_type', '=', 'alarm').orderBy('id').execute();
    expect(audit).toEqual([
      { action: 'alarm.raise', actor_account: 'system', device_id: 'OC-A1' },
      { action: 'alarm.raise', actor_account: 'system', device_id: 'OC-C1' },
      { action: 'alarm.acknowledge', actor_account: 'client', device_id: 'OC-A1' },
    ]);
    // Acknowledged already: refused, naming the alarm, in the caller's language.
    const again = await request('POST', `/alarms/${inScope}/ack`, 'client', {}, 'zh-CN');
    expect(again).toMatchObject({ status: 400, body: { message: `报警 ${inScope} 当前状态下不能确认` } });
  });

  it('shelves for at most ALARM_SHELVE_MAX_MINUTES with a reason, and brings the alarm back when the time is up', async () => {
    expect((await request('POST', `/alarms/${inScope}/shelve`, 'client', { minutes: 10, reason: 'sensor' })).status).toBe(403);
    const tooLong = await request('POST', `/alarms/${inScope}/shelve`, 'second', { minutes: 61, reason: 'sensor' });
    expect(tooLong.status).toBe(400);
    expect((tooLong.body as { message: string }).message).toContain('minutes');
    const noReason = await request('POST', `/alarms/${inScope}/shelve`, 'second', { minutes: 30 });
    expect((noReason.body as { message: string }).message).toContain('reason');
    const shelved = await request('POST', `/alarms/${inScope}/shelve`, 'second', { minutes: 10, reason: 'oxygen sensor being replaced' });
    expect(shelved.body).toMatchObject({ state: 'shelved', shelvedUntil: clock.now() + 10 * MINUTE, comment: 'oxygen sensor being replaced' });
    clock.advance(9 * MINUTE);
    expect(await sweepAlarms(store.context().db, clock.now())).toEqual([]);
    clock.advance(MINUTE);
    await sweepAlarms(store.context().db, clock.now());
    expect((await request('GET', `/alarms/${inScope}`, 'second')).body).toMatchObject({ state: 'active-unacked', shelvedUntil: null });
    // Shelved again, then unshelved by hand; the condition gone meanwhile: closed.
    await request('POST', `/alarms/${inScope}/shelve`, 'second', { minutes: 5, reason: 'again' });
    await store.context().db.updateTable('alarms').set({ condition: 0 }).where('id', '=', inScope).execute();
    expect((await request('POST', `/alarms/${inScope}/unshelve`, 'second')).body).toMatchObject({ state: 'closed', closedAt: clock.now() });
  });

  it('closes out of service with a reason: admin and user only', async () => {
    expect((await request('POST', `/alarms/${inScope}/close`, 'second', { reason: 'stuck' })).status).toBe(403);
    expect((await request('POST', `/alarms/${inScope}/close`, 'client', { reason: 'stuck' })).status).toBe(403);
    const closed = await request('POST', `/alarms/${inScope}/close`, 'first', { reason: 'sensor unplugged for service' });
    expect(closed.body).toMatchObject({ state: 'closed', comment: 'sensor unplugged for service' });
    expect((await request('POST', `/alarms/${inScope}/close`, 'first', { reason: 'again' })).status).toBe(400);
  });

  it('lists the rules of every device type to everyone; only an admin edits one, audited, each field checked', async () => {
    const rules = (await request('GET', '/alarm-rules?filter=%7B%22deviceType%22%3A1%7D', 'client')).body as { id: number; kind: string }[];
    expect(rules.map((rule) => rule.kind).sort()).toHaveLength(10);
    const o2 = rules.find((rule) => rule.kind === 'o2-high');
    const edit = { id: o2?.id, priority: 'medium', above: 22.5, below: null, highAbove: 23.5, highBelow: null, atLimit: true, onDelayS: 5, offDelayS: 10, deadband: 0.2, enabled: true };
    expect((await request('PUT', `/alarm-rules/${o2?.id}`, 'first', edit)).status).toBe(403);
    const bad = await request('PUT', `/alarm-rules/${o2?.id}`, 'admin', { ...edit, onDelayS: -1 });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toContain('onDelayS');
    const edited = await request('PUT', `/alarm-rules/${o2?.id}`, 'admin', edit);
    expect(edited.body).toMatchObject({ kind: 'o2-high', deviceType: 1, above: 22.5, onDelayS: 5, atLimit: true });
    const entry = await store.context().db.selectFrom('audit_log').select(['action', 'actor_account']).where('target_type', '=', 'alarmRule').execute();
    expect(entry).toEqual([{ action: 'alarmRule.update', actor_account: 'admin' }]);
  });
});
