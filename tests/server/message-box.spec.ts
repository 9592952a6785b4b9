import type { AddressInfo } from 'node:net';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyAck } from '../../server/commands/acks';
import { timeOutUnanswered } from '../../server/commands/sweeper';
import { CODES } from '../../src/domain/envelope';
import type { MessageNotice } from '../../src/domain/live';
import type { MessageListAnswer, MessageListBody, MessageReadAnswer } from '../../src/domain/messages';
import { DEVICE_COMMANDS } from '../../src/resources/devices/config';
import { liveEvents, recordingLink } from './device-command-fakes';
import { T0, useFleetApp, type DemoName } from './fleet';
import { call, envelope, tokenFor } from './http';
import { connect, type Received } from './live-client';
import { fakeClock, STORE_KINDS, useStore } from './stores';

/**
 * The message box (docs/messages.md): the server makes each account's messages in the transaction of what
 * they report (a command's outcome for its issuer, a password reset, a device assignment), lists them in
 * the reader's language with unread counts, marks only the reader's own read, and tells only the owner's
 * live streams.
 */

describe.each(STORE_KINDS)('message box (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  const fleet = useFleetApp(store, clock.now);

  beforeEach(() => {
    clock.advance(1000);
    fleet.app.ctx.link = recordingLink();
  });

  const box = async (who: DemoName, body: MessageListBody = { current: 1, pageSize: 10 }, lang = 'en-US', token = fleet.tokens[who]) => {
    const response = await call(fleet.app, '/api/message/list', body, { token, lang });
    const answer = envelope<MessageListAnswer>(response);
    expect(answer.code, response.body).toBe(CODES.ok);
    return answer.data;
  };
  const read = async (who: DemoName, ids: number[]) => {
    const response = await call(fleet.app, '/api/message/read', { ids }, { token: fleet.tokens[who] });
    expect(envelope(response).code, response.body).toBe(CODES.ok);
    return { body: response.body, data: envelope<MessageReadAnswer>(response).data };
  };
  const accountId = async (account: string) =>
    (await fleet.app.ctx.db.selectFrom('accounts').select('id').where('account', '=', account).executeTakeFirstOrThrow()).id;
  /** Sends change_state as `who` and answers the command's id. */
  const command = async (who: DemoName, Id: string): Promise<string> => {
    const response = await call(fleet.app, DEVICE_COMMANDS.changeState, { Id, State: 'Repair' }, { token: fleet.tokens[who] });
    const answer = envelope<{ cmdId: string }>(response);
    expect(answer.code, response.body).toBe(CODES.ok);
    return answer.data.cmdId;
  };
  /** Puts `count` messages of `type` in an account's box, one a second, the newest last. */
  const seed = async (account: number, type: string, count: number, readAt: number | null = null) => {
    for (let index = 0; index < count; index += 1) {
      clock.advance(1000);
      await fleet.app.ctx.db
        .insertInto('messages')
        .values({
          account_id: account,
          type,
          kind: 'passwordReset',
          params: JSON.stringify({ by: `admin${index}` }),
          created_at: clock.now(),
          read_at: readAt,
        })
        .execute();
    }
  };

  it("a command's outcome becomes one unread message of its issuer, in the reader's language, and no one else's", async () => {
    const cmdId = await command('first', 'OC-A2');
    expect((await box('first')).total).toBe(0);
    clock.advance(500);
    await applyAck(fleet.app.ctx, 'OC-A2', { cmdId, ok: true });

    const mine = await box('first');
    expect(mine.total).toBe(1);
    expect(mine.unread).toEqual({ message: 1, notice: 0, todo: 0 });
    expect(mine.list[0]).toEqual({
      id: expect.any(Number) as number,
      type: 'message',
      title: 'Command carried out: state change of OC-A2',
      subTitle: 'OC-A2',
      avatar: '',
      content: 'OC-A2 acknowledged the state change.',
      time: clock.now(),
      messageType: 'commandOutcome',
      status: 0,
    });
    expect((await box('first', undefined, 'zh-CN')).list[0]).toMatchObject({ title: '指令已执行：OC-A2 状态变更', content: 'OC-A2 已确认执行状态变更指令。' });
    for (const other of ['admin', 'second', 'client'] as const) expect((await box(other)).total, other).toBe(0);
  });

  it('a refusal carries the chamber’s reason, and a command unanswered in time becomes a message too', async () => {
    const refused = await command('second', 'OC-A1');
    await applyAck(fleet.app.ctx, 'OC-A1', { cmdId: refused, ok: false, error: 'door open' });
    await command('second', 'OC-A2');
    clock.advance(11_000);
    await timeOutUnanswered(fleet.app.ctx, clock.now(), 10_000);

    const { list, unread } = await box('second');
    expect(unread.message).toBe(2);
    expect(list.map((message) => message.title)).toEqual(['Command unanswered: state change of OC-A2', 'Command refused: state change of OC-A1']);
    expect(list[1]?.content).toBe('OC-A1 refused the state change: door open');
  });

  it('a password reset tells the account whose password was reset, once it has chosen a new one', async () => {
    const response = await call(fleet.app, '/code/Admin_reset_Code', { Account: 'second' }, { token: fleet.tokens.first });
    const { NewCode } = envelope<{ NewCode: string }>(response).data;
    const token = await tokenFor(fleet.app, 'second', NewCode);
    // Until the new password is chosen, the box is closed like every other call.
    expect(envelope(await call(fleet.app, '/api/message/list', {}, { token })).code).toBe(CODES.forbidden);
    await call(fleet.app, '/code/self_reset_Code', { OldCode: NewCode, NewCode: 'Second2027xyz' }, { token });

    const { list } = await box('second', undefined, 'en-US', token);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ title: 'Your password was reset', subTitle: 'by first', messageType: 'passwordReset', status: 0 });
    expect((await box('first')).total).toBe(0);
  });

  it('a device assignment tells the account and every account below that lost a device', async () => {
    // second has OC-A1 and OC-A2, client OC-A1: taking OC-A1 from second takes it from client too.
    const response = await call(fleet.app, '/assign_Devices', { Account: 'second', DeviceIds: ['OC-A2', 'OC-B1'] }, { token: fleet.tokens.first, lang: 'en-US' });
    expect(envelope(response).code, response.body).toBe(CODES.ok);

    expect((await box('second')).list.map(({ title, subTitle, content }) => ({ title, subTitle, content }))).toEqual([
      { title: 'Your devices changed', subTitle: 'by first', content: 'Now yours: OC-B1. No longer yours: OC-A1.' },
    ]);
    expect((await box('client', undefined, 'zh-CN')).list.map(({ title, content }) => ({ title, content }))).toEqual([
      { title: '您管理的设备有变动', content: '已从您处移除：OC-A1。' },
    ]);
    expect((await box('first')).total).toBe(0);

    // The same devices again change nothing, and say nothing.
    await call(fleet.app, '/assign_Devices', { Account: 'second', DeviceIds: ['OC-A2', 'OC-B1'] }, { token: fleet.tokens.first });
    expect((await box('second')).total).toBe(1);
  });

  it('lists newest first, page by page, filtered by type and status, with unread counts whatever the filter', async () => {
    const client = await accountId('client');
    await seed(client, 'notice', 3, T0);
    await seed(client, 'message', 12);
    await seed(client, 'todo', 2);

    const first = await box('client', { current: 1, pageSize: 5 });
    expect(first.total).toBe(17);
    expect(first.unread).toEqual({ message: 12, notice: 0, todo: 2 });
    expect(first.list.map((message) => message.type)).toEqual(['todo', 'todo', 'message', 'message', 'message']);
    const times = first.list.map((message) => message.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const fourth = await box('client', { current: 4, pageSize: 5 });
    expect(fourth.list.map((message) => message.type)).toEqual(['notice', 'notice']);

    const messages = await box('client', { current: 2, pageSize: 10, filter: { type: 'message' } });
    expect(messages.total).toBe(12);
    expect(messages.list).toHaveLength(2);
    expect((await box('client', { current: 1, pageSize: 10, filter: { status: 1 } })).list.map((message) => message.type)).toEqual(['notice', 'notice', 'notice']);
    const unreadTodos = await box('client', { current: 1, pageSize: 10, filter: { type: 'todo', status: 0 } });
    expect(unreadTodos.total).toBe(2);
    expect(unreadTodos.unread).toEqual(first.unread);

    for (const bad of [{ current: 0 }, { pageSize: 101 }, { filter: { type: 'alarm' } }, { filter: { status: 2 } }, { sort: 'time' }]) {
      const response = await call(fleet.app, '/api/message/list', bad, { token: fleet.tokens.client });
      expect(envelope(response).code, JSON.stringify(bad)).toBe(CODES.badInput);
    }
  });

  it("marks only the caller's own messages read; another account's ids are ignored exactly like missing ones", async () => {
    await seed(await accountId('second'), 'message', 2);
    await seed(await accountId('client'), 'message', 3);
    const theirs = (await box('client')).list.map((message) => message.id);
    const mine = (await box('second')).list.map((message) => message.id);
    const missing = Math.max(...theirs, ...mine) + 100;

    const onTheirs = await read('second', theirs);
    const onMissing = await read('second', [missing]);
    expect(onTheirs.body).toBe(onMissing.body);
    expect(onTheirs.data).toEqual({ read: 0, unread: { message: 2, notice: 0, todo: 0 } });
    expect((await box('client')).unread.message).toBe(3);

    const [one = 0] = mine;
    expect((await read('second', [one, one, ...theirs])).data).toEqual({ read: 1, unread: { message: 1, notice: 0, todo: 0 } });
    expect((await read('second', [one])).data.read).toBe(0);
    const after = await box('second');
    expect(after.list.map((message) => [message.id, message.status])).toEqual([
      [mine[0], 1],
      [mine[1], 0],
    ]);
    expect((await read('second', mine)).data.unread.message).toBe(0);

    for (const bad of [{ ids: [] }, { ids: ['1'] }, { ids: [0] }, {}]) {
      const response = await call(fleet.app, '/api/message/read', bad, { token: fleet.tokens.second });
      expect(envelope(response).code, JSON.stringify(bad)).toBe(CODES.badInput);
    }
    expect(envelope(await call(fleet.app, '/api/message/list', {})).code).toBe(CODES.notSignedIn);
  });

  it("a new message reaches its owner's live streams only", async () => {
    await fleet.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(fleet.app.server.address() as AddressInfo).port}`;
    const streams = {
      first: await connect(base, fleet.tokens.first),
      second: await connect(base, fleet.tokens.second),
      admin: await connect(base, fleet.tokens.admin),
    };
    const ready = (received: Received[]) => received.some((message) => message.event === 'ready');
    await Promise.all(Object.values(streams).map((stream) => stream.until(ready)));
    const published = liveEvents(fleet.app);

    const cmdId = await command('first', 'OC-B1');
    await applyAck(fleet.app.ctx, 'OC-B1', { cmdId, ok: true });
    const [message] = (await box('first')).list;
    const notice: MessageNotice = { account: await accountId('first'), id: message?.id ?? 0, type: 'message' };
    expect(published).toContainEqual({ type: 'message', data: notice });

    const isAcked = (received: Received[]) => received.some((item) => item.event === 'command' && (item.data as { status: string }).status === 'acked');
    await streams.first.until((received) => received.some((item) => item.event === 'message'));
    expect(streams.first.received.filter((item) => item.event === 'message').map((item) => item.data)).toEqual([notice]);
    // The admin sees OC-B1 and gets its outcome after the message was published; neither it nor second got the message.
    await streams.admin.until(isAcked);
    fleet.app.ctx.live.publish({ type: 'command', data: { cmdId: 'marker', Id: 'OC-A1', type: 'state', status: 'sent', at: clock.now() } });
    await streams.second.until((received) => received.some((item) => item.event === 'command' && (item.data as { cmdId: string }).cmdId === 'marker'));
    for (const other of [streams.admin, streams.second]) expect(other.received.some((item) => item.event === 'message')).toBe(false);
  });
});
