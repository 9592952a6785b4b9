import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import type { CommandOutcome, DevicePatch, LiveEvent } from '../../src/domain/live';
import { mergePatch } from '../../server/live/coalesce';
import { LIVE_SETTINGS } from '../../server/live/hub';
import { call, envelope } from './http';
import { connect, type Received } from './live-client';
import { ALL_DEVICES, FLEET_ASSIGNMENTS, T0, useFleetApp } from './fleet';
import { fakeClock, STORE_KINDS, useStore } from './stores';

/**
 * The live stream (docs/live.md) through real HTTP: the app listens on a free port and the stream is read
 * with the console's own event-stream parser. Events are published with app.ctx.live.publish, as
 * ingestion and the command service do.
 */

const patch = (Id: string, fields: Omit<DevicePatch, 'Id'> = {}): LiveEvent => ({ type: 'device', data: { Id, ...fields } });
const outcome = (Id: string, cmdId: string, status: CommandOutcome['status'] = 'acked'): LiveEvent => ({
  type: 'command',
  data: { cmdId, Id, type: 'state', status, at: T0 },
});
const reading = (Id: string, Time: number, RCP: number) => ({ Id, Time, RCP });

const ofType = (received: Received[], event: string) => received.filter((message) => message.event === event);
const devicesIn = (received: Received[]) =>
  new Set(received.filter((message) => message.event === 'device' || message.event === 'command').map((message) => (message.data as { Id: string }).Id));
const hasCommand = (cmdId: string) => (received: Received[]) => ofType(received, 'command').some((message) => (message.data as CommandOutcome).cmdId === cmdId);
const ready = (received: Received[]) => ofType(received, 'ready').length > 0;
const FIRST_DEVICES = FLEET_ASSIGNMENTS.first ?? [];

describe.each(STORE_KINDS)('live stream (%s)', (kind) => {
  const store = useStore(kind);
  const clock = fakeClock(T0 + 60_000);
  const fleet = useFleetApp(store, clock.now);
  let base = '';
  beforeEach(async () => {
    await fleet.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(fleet.app.server.address() as AddressInfo).port}`;
  });
  const publish = (...events: LiveEvent[]) => events.forEach((event) => fleet.app.ctx.live.publish(event));

  it('answers 401 in the REST shape without a live session; takes no token from the URL, nor any query', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }]) {
      const response = await fleet.app.inject({ method: 'GET', url: '/api/v1/live', headers });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: CODES.notSignedIn });
    }
    const inUrl = await fleet.app.inject({ method: 'GET', url: `/api/v1/live?token=${fleet.tokens.admin}` });
    expect(inUrl.statusCode).toBe(401);
    // Signed in, a query is refused outright.
    const withQuery = await fleet.app.inject({ method: 'GET', url: `/api/v1/live?token=x`, headers: { authorization: `Bearer ${fleet.tokens.admin}` } });
    expect(withQuery.statusCode).toBe(400);
  });

  it('streams server-sent events, unbuffered by proxies, starting with `ready` and a resumable id', async () => {
    const stream = await connect(base, fleet.tokens.client);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['cache-control']).toMatch(/no-cache/);
    expect(stream.headers['x-accel-buffering']).toBe('no');
    await stream.until(ready);
    expect(stream.received[0]).toMatchObject({ event: 'ready', data: { heartbeatMs: LIVE_SETTINGS.heartbeatMs } });
    expect(stream.received[0]?.id).toMatch(/^[\w-]+\.\d+$/);
  });

  it("never carries a device outside a first-level administrator's scope; the super administrator sees all", async () => {
    const first = await connect(base, fleet.tokens.first);
    const admin = await connect(base, fleet.tokens.admin);
    await Promise.all([first.until(ready), admin.until(ready)]);
    const devices = [...ALL_DEVICES, 'OC-UNKNOWN'];
    for (let round = 0; round < 50; round += 1) {
      for (const Id of devices) publish(patch(Id, { LastSeen: T0 + round, Reading: reading(Id, T0 + round, 1.2) }), outcome(Id, `c${round}-${Id}`));
    }
    publish(outcome('OC-A1', 'last'));
    await Promise.all([first.until(hasCommand('last')), admin.until(hasCommand('last'))]);
    expect(devicesIn(first.received)).toEqual(new Set(FIRST_DEVICES));
    expect(devicesIn(admin.received)).toEqual(new Set(devices));
    expect(ofType(first.received, 'command')).toHaveLength(50 * FIRST_DEVICES.length + 1);
  });

  it('carries only the scope, whatever the scope (fast-check over random assignments and events)', async () => {
    const firstId = (await store.context().db.selectFrom('accounts').select('id').where('account', '=', 'first').executeTakeFirstOrThrow()).id;
    const event = fc.oneof(
      fc.record({
        kind: fc.constant('device' as const),
        Id: fc.constantFrom(...ALL_DEVICES, 'OC-UNKNOWN'),
        Online: fc.option(fc.boolean(), { nil: undefined }),
        State: fc.option(fc.constantFrom('Work' as const, 'Stop' as const, 'Repair' as const), { nil: undefined }),
        LastSeen: fc.option(fc.integer({ min: 0, max: 1e6 }), { nil: undefined }),
      }),
      fc.record({ kind: fc.constant('command' as const), Id: fc.constantFrom(...ALL_DEVICES, 'OC-UNKNOWN') }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.subarray([...ALL_DEVICES], { minLength: 1 }), fc.array(event, { maxLength: 40 }), async (scope, events) => {
        run += 1;
        const db = store.context().db;
        await db.deleteFrom('account_devices').where('account_id', '=', firstId).execute();
        await db.insertInto('account_devices').values(scope.map((device_id) => ({ account_id: firstId, device_id, created_at: T0 }))).execute();
        const stream = await connect(base, fleet.tokens.first);
        try {
          await stream.until(ready);
          const published = events.map((item, index): LiveEvent => {
            if (item.kind === 'command') return outcome(item.Id, `r${run}-${index}`);
            const { kind: _kind, ...fields } = item;
            return { type: 'device', data: fields };
          });
          publish(...published, outcome(scope[0] ?? '', `r${run}-end`));
          await stream.until(hasCommand(`r${run}-end`));
          const inScope = (item: LiveEvent) => (item.type === 'device' || item.type === 'command') && scope.includes(item.data.Id);
          // Device by device, the patches received merge to what was published in scope, and outcomes all arrive in order.
          const merged = (items: LiveEvent[]) => {
            const byDevice = new Map<string, DevicePatch>();
            for (const item of items) if (item.type === 'device') byDevice.set(item.data.Id, mergePatch(byDevice.get(item.data.Id) ?? { Id: item.data.Id }, item.data));
            return byDevice;
          };
          const got = stream.received.filter((message) => message.event === 'device' || message.event === 'command').map((message) => ({ type: message.event, data: message.data }) as LiveEvent);
          expect(got.every(inScope)).toBe(true);
          expect(merged(got)).toEqual(merged(published.filter(inScope)));
          const commands = (items: LiveEvent[]) => items.filter((item) => item.type === 'command').map((item) => (item.data as CommandOutcome).cmdId);
          expect(commands(got)).toEqual([...commands(published.filter(inScope)), `r${run}-end`]);
        } finally {
          stream.close();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('coalesces many patches of one device into the newest value of each field, and keeps every outcome', async () => {
    const stream = await connect(base, fleet.tokens.second);
    await stream.until(ready);
    for (let i = 1; i <= 200; i += 1) {
      publish(patch('OC-A1', { LastSeen: T0 + i, Reading: reading('OC-A1', T0 + i, 1 + i / 1000), ...(i === 50 ? { State: 'Repair' } : {}), ...(i % 2 === 0 ? { Online: i < 150 } : {}) }));
    }
    publish(outcome('OC-A1', 'one', 'sent'), outcome('OC-A1', 'one', 'acked'), outcome('OC-A2', 'two', 'refused'));
    await stream.until(hasCommand('two'));
    const devices = ofType(stream.received, 'device');
    expect(devices).toHaveLength(1);
    expect(devices[0]?.data).toEqual({ Id: 'OC-A1', LastSeen: T0 + 200, Reading: reading('OC-A1', T0 + 200, 1.2), State: 'Repair', Online: false });
    expect(ofType(stream.received, 'command').map((message) => (message.data as CommandOutcome).status)).toEqual(['sent', 'acked', 'refused']);
  });

  it('resumes after Last-Event-ID with what the tab missed, in scope and coalesced', async () => {
    const stream = await connect(base, fleet.tokens.second);
    await stream.until(ready);
    publish(patch('OC-A1', { Online: true }), outcome('OC-A2', 'seen'));
    await stream.until(hasCommand('seen'));
    const resumeFrom = stream.received.at(-1)?.id ?? '';
    stream.close();

    publish(patch('OC-A1', { Online: false }), patch('OC-C1', { Online: false }), patch('OC-A1', { State: 'Stop' }), outcome('OC-A2', 'missed'));
    const resumed = await connect(base, fleet.tokens.second, resumeFrom);
    await resumed.until(ready);
    expect(resumed.received.map((message) => message.event)).toEqual(['device', 'command', 'ready']);
    expect(resumed.received[0]?.data).toEqual({ Id: 'OC-A1', Online: false, State: 'Stop' });
    expect(resumed.received[1]?.data).toMatchObject({ cmdId: 'missed' });
    // Ids only grow, and it goes on live from there.
    publish(patch('OC-A2', { Online: true }));
    await resumed.until((received) => devicesIn(received).has('OC-A2'));
    const seqs = resumed.received.map((message) => Number(message.id.split('.')[1]));
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it("sends a reset when Last-Event-ID is another process's, or older than the history keeps", async () => {
    const stranger = await connect(base, fleet.tokens.first, 'another-process.12');
    await stranger.until(ready);
    expect(stranger.received.map((message) => [message.event, message.data])).toEqual([
      ['reset', { reason: 'unknown' }],
      ['ready', { heartbeatMs: LIVE_SETTINGS.heartbeatMs }],
    ]);

    const stream = await connect(base, fleet.tokens.first);
    await stream.until(ready);
    const from = stream.received[0]?.id ?? '';
    stream.close();
    // More events than the history holds: the first one missed is gone.
    for (let i = 0; i <= LIVE_SETTINGS.history.capacity; i += 1) publish(patch('OC-A1', { LastSeen: i }));
    const tooMany = await connect(base, fleet.tokens.first, from);
    await tooMany.until(ready);
    expect(ofType(tooMany.received, 'reset').map((message) => message.data)).toEqual([{ reason: 'too-old' }]);
    expect(devicesIn(tooMany.received).size).toBe(0);

    // And events older than the history's age.
    const later = tooMany.received.at(-1)?.id ?? '';
    tooMany.close();
    publish(patch('OC-A1', { LastSeen: 1 }));
    clock.advance(LIVE_SETTINGS.history.maxAgeMs + 1);
    publish(patch('OC-A1', { LastSeen: 2 }));
    const tooOld = await connect(base, fleet.tokens.first, later);
    await tooOld.until(ready);
    expect(ofType(tooOld.received, 'reset').map((message) => message.data)).toEqual([{ reason: 'too-old' }]);
  });

  it('stops carrying a device once its assignment is removed, after telling the client to refetch', async () => {
    const stream = await connect(base, fleet.tokens.first);
    await stream.until(ready);
    const kept = FIRST_DEVICES.filter((id) => id !== 'OC-B1');
    const answer = await call(fleet.app, '/assign_Devices', { Account: 'first', DeviceIds: kept }, { token: fleet.tokens.admin });
    expect(envelope(answer).code).toBe(CODES.ok);
    await stream.until((received) => ofType(received, 'reset').length > 0, LIVE_SETTINGS.recheckMs * 3);
    expect(ofType(stream.received, 'reset')[0]?.data).toEqual({ reason: 'scope' });
    publish(patch('OC-B1', { Online: false }), outcome('OC-B1', 'gone'), outcome('OC-A1', 'after'));
    await stream.until(hasCommand('after'));
    expect(devicesIn(stream.received)).toEqual(new Set(['OC-A1']));
  });

  it('ends the stream after sign-out, and the token opens no new one', async () => {
    const stream = await connect(base, fleet.tokens.second);
    await stream.until(ready);
    const signOut = await call(fleet.app, '/api/user/logout', {}, { token: fleet.tokens.second });
    expect(envelope(signOut).code).toBe(CODES.ok);
    const started = Date.now();
    await stream.ended;
    expect(Date.now() - started).toBeLessThan(LIVE_SETTINGS.recheckMs * 2);
    expect((await connect(base, fleet.tokens.second)).status).toBe(401);
  });

  it('ends every stream when the app closes', async () => {
    const stream = await connect(base, fleet.tokens.admin);
    await stream.until(ready);
    await fleet.app.close();
    await stream.ended;
  });
});
