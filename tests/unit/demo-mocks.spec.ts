import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupServer } from 'msw/node';
import { handlers } from '../../mocks/handlers';
import { demoState } from '../../mocks/demo';
import { chamberRatesFrom, commandLog, MOCK_ACK_MS, MOCK_TIMEOUT_MS, noCommands, OLD_CONSOLE_CHAMBERS } from '../../mocks/deviceCommands';
import { loadMockState, saveMockState } from '../../mocks/persist';
import { DEMO_ACCOUNTS, DEMO_ADMIN, DEMO_ASSIGNMENTS, DEMO_DEVICES } from '../../src/domain/demo';
import type { LoginResult } from '../../src/domain/auth';
import { createEventStreamParser, readEventStream } from '../../src/domain/eventStream';
import { orderStateOf } from '../../src/resources/orders/requests';
import type { WireRecord } from '../../src/resources/model';
import { REST, UPSTREAM } from './resources/fixtures';

/** `npm run dev:mock`'s mocks (mocks/demo.ts, persist.ts): the demo's accounts and fleet, dated from now, kept across a reload. */
const MINUTE = 60_000;
const started = Date.now();
const state = demoState(started);
const server = setupServer(...handlers(UPSTREAM, REST, { state, liveTickMs: 50 }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const post = async <T>(path: string, body: unknown, token?: string): Promise<{ code: number; data: T }> => {
  const response = await fetch(`${UPSTREAM}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { code: number; data: T };
};
const signIn = async (Account: string, Code: string) => {
  const { data } = await post<LoginResult>('/login', { Account, Code });
  if (!data.State) throw new Error(`${Account} did not sign in`);
  return data.token;
};
const rest = async <T>(path: string, token: string) =>
  (await (await fetch(`${REST}/${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;

describe('the demo in the mocks', () => {
  it('signs in the demo accounts with their passwords, each under the one above, and lists the demo fleet and assignments', async () => {
    for (const { account, password, level } of [DEMO_ADMIN, ...DEMO_ACCOUNTS]) {
      const token = await signIn(account, password);
      expect((await post<{ Level: number }>('/api/user/info', {}, token)).data.Level).toBe(level);
    }
    const admin = await signIn(DEMO_ADMIN.account, DEMO_ADMIN.password);
    const devices = (await post<{ list: WireRecord[] }>('/list/get_OCProperty', { pageSize: 100 }, admin)).data.list;
    expect(devices.map((device) => device.Id).sort()).toEqual(DEMO_DEVICES.map((device) => device.id).sort());
    const accounts = (await post<{ list: WireRecord[] }>('/get_Admins', { pageSize: 100 }, admin)).data.list;
    expect(Object.fromEntries(accounts.map((account) => [account.Account, [account.SubAdmin, account.DeviceIds]]))).toEqual({
      first: ['admin', [...(DEMO_ASSIGNMENTS.first ?? [])].sort()],
      second: ['first', [...(DEMO_ASSIGNMENTS.second ?? [])].sort()],
      client: ['second', [...(DEMO_ASSIGNMENTS.client ?? [])].sort()],
    });
    const info = await post<{ SubAdmin: string | null }>('/getUserInfo', {}, await signIn('second', 'Second2026'));
    expect(info.data.SubAdmin).toBe('first');
  });

  it('dates its data from now: readings of the last minutes, bookings for later today, alarms raised minutes ago', async () => {
    const admin = await signIn(DEMO_ADMIN.account, DEMO_ADMIN.password);
    const [newest] = (await post<{ list: WireRecord[] }>('/list/get_OCState', { pageSize: 1, sort: { field: 'Time', order: 'DESC' } }, admin)).data.list;
    expect(started - Number(newest?.Time)).toBeLessThan(5 * MINUTE);
    const alarms = await rest<{ raisedAt: number }[]>('alarms?range=[0,99]', admin);
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) expect(started - alarm.raisedAt).toBeLessThan(2 * 60 * MINUTE);
    const orders = state.tables.get('orders') ?? [];
    const open = orders.filter((order) => orderStateOf(order) === 'open');
    expect(open.length).toBeGreaterThan(0);
    for (const order of open) expect(Number(order.SetT)).toBeGreaterThan(started);
    // A working chamber runs a booking: the workplace counts its session today.
    const running = (state.tables.get('devices') ?? []).filter((device) => device.State === 'Work' && device.OrderNum !== null);
    expect(running.length).toBe(DEMO_DEVICES.filter((device) => device.state === 'Work').length);
  });

  it('lets an account created in the mocks sign in, through add_Admin or its alias createUser', async () => {
    const first = await signIn('first', 'First2026');
    expect((await post('/add_Admin', { Account: 'nurse-a', Code: 'Nurse2026abc', Level: 2 }, first)).code).toBe(20000);
    expect((await post('/createUser', { Account: 'nurse-b', Code: 'Nurse2026bcd', Level: 3 }, first)).code).toBe(20000);
    const info = await post<{ Account: string; SubAdmin: string; Level: number }>('/api/user/info', {}, await signIn('nurse-b', 'Nurse2026bcd'));
    expect(info.data).toMatchObject({ Account: 'nurse-b', SubAdmin: 'first', Level: 3 });
    await signIn('nurse-a', 'Nurse2026abc');
  });

  it('keeps its data and sessions in the browser: a reload goes on signed in, with what was changed', async () => {
    const admin = await signIn(DEMO_ADMIN.account, DEMO_ADMIN.password);
    const edit = { Id: 'OC-BJ-001', name: '朝阳 1 号舱', Type: 1, Location: 'Ward 7' };
    expect((await post('/device/update_OCProperty', edit, admin)).code).toBe(20000);
    saveMockState(window.localStorage, state);
    // A reload: the modules (and their sessions) start again, from what the browser kept.
    vi.resetModules();
    const { loadMockState: reload } = (await import('../../mocks/persist')) as { loadMockState: typeof loadMockState };
    const { handlers: reloaded } = (await import('../../mocks/handlers')) as { handlers: typeof handlers };
    const kept = reload(window.localStorage, Date.now());
    server.use(...reloaded(UPSTREAM, REST, { state: kept }));
    expect((await post<{ Account: string }>('/api/user/info', {}, admin)).data.Account).toBe('admin');
    const devices = (await post<{ list: WireRecord[] }>('/list/get_OCProperty', { filter: { Id: 'OC-BJ-001' } }, admin)).data.list;
    expect(devices[0]?.Location).toBe('Ward 7');
    // Data seeded more than a day ago is seeded afresh, dated from now.
    const tomorrow = Date.now() + 25 * 60 * MINUTE;
    expect(reload(window.localStorage, tomorrow).seededAt).toBe(tomorrow);
  });

  it('keeps the basic information and certificates across a reload, and seeds them afresh after the reset', async () => {
    const client = await signIn('client', 'Client2026');
    const info = { email: 'li.na@example.com', nickname: 'Li Na', countryRegion: 'China', area: 'Hangzhou', address: '', phone: '', profile: '负责二号舱。' };
    expect((await post('/api/user/save-info', info, client)).code).toBe(20000);
    const certificate = { number: 'HBO-2026-0042', issuer: 'Zhejiang Hyperbaric Society', expiresOn: '2099-06-30' };
    expect((await post('/api/user/certification/submit', certificate, client)).code).toBe(20000);
    saveMockState(window.localStorage, state);
    const reload = async () => {
      vi.resetModules();
      const persist = (await import('../../mocks/persist')) as typeof import('../../mocks/persist');
      const { handlers: reloaded } = (await import('../../mocks/handlers')) as { handlers: typeof handlers };
      server.use(...reloaded(UPSTREAM, REST, { state: persist.loadMockState(window.localStorage, Date.now()) }));
      return persist;
    };
    const { resetMockState } = await reload();
    expect((await post('/api/user/basic-info', {}, client)).data).toEqual(info);
    expect((await post<{ enterpriseInfo: unknown }>('/api/user/certification', {}, client)).data.enterpriseInfo).toMatchObject({ authenticationNumber: certificate.number, status: 0 });
    // Still waiting for the administrator above, who decides it after the reload.
    const second = await signIn('second', 'Second2026');
    expect((await post<{ account: string }[]>('/api/user/certification/pending', {}, second)).data.map((waiting) => waiting.account)).toEqual(['client']);
    // `?mockReset`: everything is seeded afresh, signed out; signed in again, nothing was saved.
    resetMockState(window.localStorage);
    await reload();
    const again = await signIn('client', 'Client2026');
    expect((await post('/api/user/basic-info', {}, again)).data).toMatchObject({ email: '', nickname: '' });
    expect((await post('/api/user/certification', {}, again)).data).toEqual({ enterpriseInfo: null, record: [] });
  });

  it('moves on the live stream: the chambers the caller sees report readings, presence, and the commands their answers', async () => {
    const client = await signIn('client', 'Client2026');
    const issued = await post<{ cmdId: string }>('/order/change_permission', { Id: DEMO_ASSIGNMENTS.client?.[0] }, await signIn('admin', 'Admin2026'));
    const abort = new AbortController();
    const response = await fetch(`${REST}/live`, { headers: { authorization: `Bearer ${client}` }, signal: abort.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const seen = new Map<string, number[]>();
    let command: unknown;
    const parser = createEventStreamParser(({ event, data }) => {
      const payload = JSON.parse(data) as { Id: string; Online?: boolean; Reading?: { Time: number } };
      if (event === 'command') command = payload;
      if (event === 'device') {
        expect(payload.Online).toBe(true);
        seen.set(payload.Id, [...(seen.get(payload.Id) ?? []), Number(payload.Reading?.Time)]);
      }
      // Each chamber has reported twice and the command's answer (due MOCK_ACK_MS after it was sent) has come.
      if (command !== undefined && seen.size > 0 && [...seen.values()].every((times) => times.length >= 2)) abort.abort();
    });
    await readEventStream(response.body ?? new ReadableStream(), parser).catch((error: unknown) => {
      if (!abort.signal.aborted) throw error;
    });
    // The client sees two chambers, both online: only theirs report.
    expect([...seen.keys()].sort()).toEqual([...(DEMO_ASSIGNMENTS.client ?? [])].sort());
    expect(command).toMatchObject({ cmdId: issued.data.cmdId, status: 'acked' });
  });
});

describe('the mocked chambers', () => {
  it('take their rates from the URL or localStorage, the old console\u2019s (all acknowledged) otherwise', () => {
    const from = (values: Record<string, string>) => chamberRatesFrom((name) => values[name]);
    expect(from({})).toEqual(OLD_CONSOLE_CHAMBERS);
    expect(from({ mockAck: '0.5', mockRefuse: '0.3' })).toEqual({ ack: 0.5, refuse: 0.3 });
    const capped = from({ mockAck: '0.8', mockRefuse: '0.5' });
    expect([capped.ack, capped.refuse.toFixed(6)]).toEqual([0.8, '0.200000']);
    expect(from({ mockAck: 'lots', mockRefuse: '-1' })).toEqual(OLD_CONSOLE_CHAMBERS);
  });

  it('acknowledge, refuse or time out each command at those rates', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const statusesAt = (rates: { ack: number; refuse: number }, draws: number[]) => {
        const log = commandLog(noCommands(), rates, () => draws.shift() ?? 0);
        for (const _ of [1, 2, 3]) log.issue('OC-BJ-001', { type: 'permission', Permission: 'Open' }, 'admin');
        vi.advanceTimersByTime(MOCK_ACK_MS);
        log.settle();
        const early = log.records.map((record) => record.status);
        vi.advanceTimersByTime(MOCK_TIMEOUT_MS);
        log.settle();
        return [early, log.records.map((record) => record.status)];
      };
      // Newest first: draws 0.1, 0.5 and 0.9 against ack 0.4 and refuse 0.4.
      expect(statusesAt({ ack: 0.4, refuse: 0.4 }, [0.1, 0.5, 0.9])).toEqual([
        ['sent', 'refused', 'acked'],
        ['timeout', 'refused', 'acked'],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
