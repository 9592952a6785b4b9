import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { createAlarmEngine, type AlarmEngine } from '../../server/alarms/engine';
import type { LimitedLog } from '../../server/telemetry/log';
import { CODES } from '../../src/domain/envelope';
import type { AlarmRecord } from '../../src/domain/alarms/record';
import type { LiveEvent } from '../../src/domain/live';
import type { Message, MessageListAnswer } from '../../src/domain/messages';
import { T0, useFleetApp, type DemoName } from './fleet';
import { call, envelope } from './http';
import { connect, type Received } from './live-client';
import { fakeClock, MINUTE, STORE_KINDS, useStore } from './stores';

/**
 * Alarms in the message box (docs/messages.md, "Alarms") on both stores, fed by the real engine: a raised
 * alarm is a notice for every account that sees its device (the super administrator and the accounts it is
 * assigned to, clients included) and nobody else; a high or medium one is also a todo for each of them until
 * anyone acknowledges, shelves or closes it; an escalation to high is a notice too; the live `message` events
 * reach the owners' streams only.
 *   Viewers in the fleet: OC-A1 admin, first, second, client; OC-B1 admin, first; OC-C1 admin.
 */

const AT = T0 + 30 * MINUTE;
const EVERYONE: readonly DemoName[] = ['admin', 'first', 'second', 'client'];

describe.each(STORE_KINDS)('alarms in the message box (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60 * MINUTE);
  const fleet = useFleetApp(store, clock.now);
  let engine: AlarmEngine;
  let log: Mock<LimitedLog>;
  let published: LiveEvent[];

  beforeEach(() => {
    log = vi.fn<LimitedLog>();
    engine = createAlarmEngine({ ctx: fleet.app.ctx, log, intervalMs: 0 });
    published = [];
    fleet.app.ctx.live.subscribe((event) => published.push(event));
  });
  afterEach(async () => {
    await engine.close();
    // An evaluation that failed is only logged: none may have.
    expect(log).not.toHaveBeenCalled();
  });

  /** Readings of one device a second apart from `from`, then the engine settled. */
  const feed = async (deviceId: string, fields: Record<string, number>, seconds: number, from: number) => {
    for (let second = 0; second < seconds; second += 1) engine.readingsStored([{ Id: deviceId, Time: from + second * 1000, ...fields }]);
    await engine.settled();
  };
  const box = async (who: DemoName, lang = 'en-US') => {
    const response = await call(fleet.app, '/api/message/list', { current: 1, pageSize: 50 }, { token: fleet.tokens[who], lang });
    const answer = envelope<MessageListAnswer>(response);
    expect(answer.code, response.body).toBe(CODES.ok);
    return answer.data;
  };
  const todos = async (who: DemoName) => (await box(who)).list.filter((message) => message.type === 'todo');
  const alarmOf = async (deviceId: string) =>
    Number((await fleet.app.ctx.db.selectFrom('alarms').select('id').where('device_id', '=', deviceId).orderBy('id', 'desc').executeTakeFirstOrThrow()).id);
  const act = async (who: DemoName, id: number, action: 'ack' | 'shelve' | 'unshelve' | 'close', body: object = {}) => {
    const response = await fleet.app.inject({
      method: 'POST',
      url: `/api/v1/alarms/${id}/${action}`,
      headers: { authorization: `Bearer ${fleet.tokens[who]}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AlarmRecord>();
  };
  const accountId = async (who: DemoName) =>
    (await fleet.app.ctx.db.selectFrom('accounts').select('id').where('account', '=', who).executeTakeFirstOrThrow()).id;

  it('a high alarm is a notice and a todo for every account that sees its device, in its language, and nothing for the others', async () => {
    await feed('OC-B1', { RCPi02: 23.6 }, 4, AT);
    const id = await alarmOf('OC-B1');

    const first = await box('first');
    expect(first.unread).toEqual({ message: 0, notice: 1, todo: 1 });
    const byType = (list: Message[], type: string) => list.find((message) => message.type === type);
    expect(byType(first.list, 'notice')).toEqual({
      id: expect.any(Number) as number,
      type: 'notice',
      title: 'High priority alarm: cabin oxygen high on OC-B1',
      subTitle: 'OC-B1',
      avatar: '',
      content: `Alarm No. ${id}: value 23.6, limit 23.5.`,
      time: clock.now(),
      messageType: 'alarmRaised',
      status: 0,
      alarm: { id, deviceId: 'OC-B1' },
    });
    expect(byType(first.list, 'todo')).toMatchObject({
      title: 'To acknowledge: High priority alarm, cabin oxygen high on OC-B1',
      content: `Alarm No. ${id}: value 23.6, limit 23.5. Done by itself once someone acknowledges, shelves or closes the alarm.`,
      messageType: 'alarmAwaitingAck',
      status: 0,
      alarm: { id, deviceId: 'OC-B1' },
    });
    const inChinese = (await box('admin', 'zh-CN')).list;
    expect(byType(inChinese, 'notice')).toMatchObject({ title: '高优先级报警：OC-B1 舱内氧浓度高', content: `报警编号 ${id}，报警值 23.6，阈值 23.5。` });
    expect(byType(inChinese, 'todo')).toMatchObject({ title: '待确认：OC-B1 舱内氧浓度高（高优先级）' });
    for (const outside of ['second', 'client'] as const) expect((await box(outside)).total, outside).toBe(0);
  });

  it("a client in scope gets them too, and anyone's acknowledgement resolves every holder's todo, live", async () => {
    await feed('OC-A1', { RCPi02: 23.6 }, 4, AT);
    for (const who of EVERYONE) expect((await box(who)).unread, who).toEqual({ message: 0, notice: 1, todo: 1 });
    const held = await Promise.all(EVERYONE.map(async (who) => ({ account: await accountId(who), id: (await todos(who))[0]?.id ?? 0, type: 'todo' })));

    published.length = 0;
    clock.advance(1000);
    expect(await act('client', await alarmOf('OC-A1'), 'ack')).toMatchObject({ state: 'active-acked', ackedBy: 'client' });
    for (const who of EVERYONE) {
      expect((await box(who)).unread, who).toEqual({ message: 0, notice: 1, todo: 0 });
      expect((await todos(who)).map((todo) => todo.status), who).toEqual([1]);
    }
    expect(published.filter((event) => event.type === 'message').map((event) => event.data)).toEqual(expect.arrayContaining(held));
    expect(published.filter((event) => event.type === 'message')).toHaveLength(held.length);
  });

  it('a returned alarm still waits; shelving or closing resolves its todo; one back from its shelf is new again', async () => {
    // Raised, then normal past the 10 s off-delay: returned to normal, not yet acknowledged.
    await feed('OC-B1', { RCPi02: 23.6 }, 4, AT);
    await feed('OC-B1', { RCPi02: 22 }, 12, AT + 4000);
    const id = await alarmOf('OC-B1');
    expect((await fleet.app.ctx.db.selectFrom('alarms').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state).toBe('rtn-unacked');
    expect((await box('first')).unread.todo).toBe(1);

    await act('first', id, 'shelve', { minutes: 5, reason: 'sensor being replaced' });
    expect((await box('first')).unread).toEqual({ message: 0, notice: 1, todo: 0 });
    expect((await box('admin')).unread.todo).toBe(0);

    // Back from the shelf while its condition stands: a new notice and a new todo.
    await feed('OC-B1', { RCPi02: 23.6 }, 4, AT + 20_000);
    await act('admin', id, 'unshelve');
    expect((await box('first')).unread).toEqual({ message: 0, notice: 2, todo: 1 });

    await act('admin', id, 'close', { reason: 'chamber out of service' });
    expect((await box('first')).unread.todo).toBe(0);
    expect((await todos('first')).map((todo) => todo.status)).toEqual([1, 1]);
  });

  it('a medium alarm escalating to high is a notice, and its todo follows the priority; a low alarm is a notice alone', async () => {
    await feed('OC-B1', { RCPi02: 23.1 }, 4, AT);
    const medium = await box('first');
    // Made together, the todo after the notice: newest first.
    expect(medium.list.map((message) => message.title)).toEqual([
      'To acknowledge: Medium priority alarm, cabin oxygen high on OC-B1',
      'Medium priority alarm: cabin oxygen high on OC-B1',
    ]);

    clock.advance(1000);
    await feed('OC-B1', { RCPi02: 23.6 }, 1, AT + 4000);
    const escalated = await box('first');
    expect(escalated.unread).toEqual({ message: 0, notice: 2, todo: 1 });
    expect(escalated.list.find((message) => message.messageType === 'alarmEscalated')).toMatchObject({
      type: 'notice',
      title: 'Alarm now high priority: cabin oxygen high on OC-B1',
      time: clock.now(),
    });
    expect((await todos('first')).map((todo) => todo.title)).toEqual(['To acknowledge: High priority alarm, cabin oxygen high on OC-B1']);

    // Humidity's only band is low priority: nothing to acknowledge in the box.
    await feed('OC-A2', { RCRH: 40 }, 62, AT);
    expect((await box('second')).list.map((message) => [message.type, message.title])).toEqual([
      ['notice', 'Low priority alarm: cabin humidity on OC-A2'],
    ]);
  });

  it("the live message events reach their owners' streams only", async () => {
    await fleet.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(fleet.app.server.address() as AddressInfo).port}`;
    const streams = { first: await connect(base, fleet.tokens.first), second: await connect(base, fleet.tokens.second) };
    const ready = (received: Received[]) => received.some((message) => message.event === 'ready');
    await Promise.all(Object.values(streams).map((stream) => stream.until(ready)));

    const messageEvents = (received: Received[]) => received.filter((item) => item.event === 'message').map((item) => item.data);
    /** The live events an account's box should have had: one per message, in the order they were made. */
    const expected = async (who: DemoName) => {
      const account = await accountId(who);
      return (await box(who)).list.map((message) => ({ account, id: message.id, type: message.type })).sort((a, b) => a.id - b.id);
    };

    await feed('OC-B1', { RCPi02: 23.6 }, 4, AT);
    await streams.first.until((received) => messageEvents(received).length === 2);
    expect(messageEvents(streams.first.received)).toEqual(await expected('first'));

    // second sees OC-A1, not OC-B1: OC-A1's alarm is all its stream carries.
    await feed('OC-A1', { RCPi02: 23.6 }, 4, AT);
    await streams.second.until((received) => messageEvents(received).length === 2);
    expect(messageEvents(streams.second.received)).toEqual(await expected('second'));
    await streams.first.until((received) => messageEvents(received).length === 4);
    expect(messageEvents(streams.first.received)).toEqual(await expected('first'));
  });
});
