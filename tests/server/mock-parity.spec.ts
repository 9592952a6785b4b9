import type { FastifyInstance } from 'fastify';
import { getResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { demoCredentials } from '../../mocks/demo';
import { handlers } from '../../mocks/handlers';
import type { MockState } from '../../mocks/state';
import { noUserSettings } from '../../mocks/userSettings';
import { seedDemo } from '../../server/accounts/demo';
import { seedDemoFleet } from '../../server/demo/fleet';
import { settingsHash } from '../../server/setting-requests/list';
import { recordAudit } from '../../server/audit/trail';
import { DEMO_ACCOUNTS, DEMO_ADMIN, DEMO_ASSIGNMENTS } from '../../src/domain/demo';
import { MENU_ROUTES } from '../../src/domain/menu';
import { createDataProvider } from '../../src/providers/dataProvider';
import { createHttpClient } from '../../src/providers/httpClient';
import type { TokenStore } from '../../src/providers/tokenStore';
import { UPSTREAM_ALIASES } from '../../src/resources/accounts/calls';
import { RESOURCE_CONFIGS } from '../../src/resources/configs';
import { recordId, serves, sourcesIn, type WireRecord } from '../../src/resources/model';
import { recordSchema } from '../../src/resources/schema';
import type { ResourceConfig } from '../../src/resources/types';
import { VALID_STEP } from '../fixtures/channelForms';
import { fakeClock, STORE_KINDS, useStore } from './stores';

/**
 * The mocks answer as the server does. Every call the console makes is generated, not listed by hand:
 * the data provider's react-admin methods for each configured resource (and each resource a page of the
 * route table lists), its custom methods, and the server's other names of calls; each is recorded as
 * the console's data provider sends it. The same request then goes to the server (app.inject) and to the
 * mocks (their handlers, called directly), both holding the same data (the demo's accounts and fleet as
 * the server seeds them, handed to the mocks), as each of the four demo roles. Each pair of answers must
 * match in HTTP status and envelope code, in shape (the shared record schema of the resource, and the
 * same fields of the same kinds), and in the set of ids the role sees. Reads go first, then the writes,
 * each changing both sides alike; a password reset ends the session it resets, so it goes last.
 */

const UPSTREAM = '/upstream';
const REST = '/api/v1';
const MOCK_ORIGIN = 'http://mocks.test';
const ROLES = [DEMO_ADMIN, ...DEMO_ACCOUNTS].map(({ account, password }) => ({ account, password }));
const HOUR = 3_600_000;

interface Recorded {
  method: string;
  /** Path and query, from the server's root. */
  url: string;
  body?: string;
}

interface Call {
  name: string;
  request: Recorded;
  /** The resource whose records the answer holds, when it is a resource's call. */
  config?: ResourceConfig;
  write: boolean;
}

/** The console's data provider, its requests recorded instead of sent; each method call answers the requests it made. */
const recordingProvider = () => {
  let recorded: Recorded[] = [];
  const fetcher = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), MOCK_ORIGIN);
    recorded.push({ method: init.method ?? 'GET', url: `${url.pathname}${url.search}`, ...(typeof init.body === 'string' ? { body: init.body } : {}) });
    // An answer that satisfies no schema: the method fails after its request was recorded, which is all this needs.
    return new Response('{}', { status: 500, headers: { 'content-type': 'application/json' } });
  };
  vi.stubGlobal('fetch', fetcher);
  const tokens: TokenStore = { get: () => 'recording', set: () => undefined, clear: () => undefined };
  const provider = createDataProvider({
    http: createHttpClient({ baseUrl: UPSTREAM, tokens, locale: () => 'en-US', fetch: fetcher }),
    restBase: REST,
    tokens,
    resources: RESOURCE_CONFIGS,
    locale: () => 'en-US',
  });
  const record = async (run: () => Promise<unknown>): Promise<Recorded[]> => {
    recorded = [];
    await run().catch(() => undefined);
    return recorded;
  };
  return { provider, record };
};

/** The type of every value at every path: two answers have the same shape when these are equal. */
const shapeOf = (value: unknown): unknown => {
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    const elements = [...new Set(value.map((element) => JSON.stringify(shapeOf(element))))].sort();
    return elements.length === 0 ? '[]' : elements.map((element) => JSON.parse(element) as unknown);
  }
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)).map(([key, field]) => [key, shapeOf(field)]));
  }
  return typeof value;
};

/** What an answer holds: the envelope's data (upstream) or the body (REST). */
const payloadOf = (call: Call, json: unknown): unknown =>
  call.request.url.startsWith(UPSTREAM) && typeof json === 'object' && json !== null && 'code' in json ? (json as unknown as { data: unknown }).data : json;

/** The records of a list answer, or the one record answered. */
const recordsOf = (payload: unknown): WireRecord[] => {
  if (Array.isArray(payload)) return payload as WireRecord[];
  if (typeof payload === 'object' && payload !== null) {
    const { list } = payload as { list?: unknown };
    return Array.isArray(list) ? (list as WireRecord[]) : [payload as WireRecord];
  }
  return [];
};

/** The ids an answer shows: its records' ids as their resource names them, else each record's own id field. */
const idsOf = (call: Call, payload: unknown): string[] =>
  recordsOf(payload)
    .map((record) => {
      if (call.config) return String(recordId(call.config, record));
      const id = record.Id ?? record.id ?? record.Account ?? record.cmdId;
      return id === undefined ? undefined : String(id);
    })
    .filter((id): id is string => id !== undefined)
    .sort();

describe.each(STORE_KINDS)('the mocks answer every call as the server does (%s)', (kind) => {
  const store = useStore(kind);

  it('for each demo role: the same status, code, shape and ids', { timeout: 300_000 }, async () => {
    const clock = fakeClock(Date.now());
    const ctx = store.context(undefined, clock.now);
    await seedDemo(ctx);
    await seedDemoFleet(ctx, { recordsPerDevice: 5, orders: 20 });
    // A notification channel as the derived writes keep one: its URL read back as its mask.
    await ctx.db
      .insertInto('notification_channels')
      .values({ name: 'Ward chat', type: 'slack', enabled: 1, host: 'smtp.example.com', port: 25, tls: 0, username: 'u', sender: 'a@example.com', url: 'https://hooks.example.com/••••', url_value: 'https://hooks.example.com/services/ward', secret: null, secret_value: null })
      .execute();
    const [alarmDevice = '', otherDevice = ''] = DEMO_ASSIGNMENTS.client ?? [];
    await ctx.db
      .insertInto('alarms')
      .values([alarmDevice, otherDevice, 'OC-CD-001'].map((device_id, index) => ({ id: index + 1, device_id, kind: 'erd', priority: 'high', state: 'active-unacked', condition: 1, raised_at: clock.now() - HOUR })))
      .execute();
    await ctx.db
      .insertInto('device_commands')
      .values({
        cmd_id: 'parity-cmd-0001',
        device_id: alarmDevice,
        type: 'state',
        payload: JSON.stringify({ cmdId: 'parity-cmd-0001', type: 'state', Time: clock.now() - HOUR, State: 'Work' }),
        status: 'acked',
        error: null,
        issued_by: null,
        issued_at: clock.now() - HOUR,
        answered_at: clock.now() - HOUR + 1000,
      })
      .execute();
    // A settings request of the demo's second-level administrator, waiting (docs/approval.md).
    const second = await ctx.db.selectFrom('accounts').select('id').where('account', '=', 'second').executeTakeFirstOrThrow();
    await ctx.db.transaction().execute((trx) =>
      recordAudit(trx, { id: second.id, account: 'second', address: '127.0.0.1' }, { action: 'settingRequest.request', targetType: 'settingRequest', targetId: 1, deviceId: alarmDevice }, clock.now() - HOUR),
    );
    await ctx.db
      .insertInto('setting_requests')
      .values({
        device_id: alarmDevice,
        requested_by: second.id,
        requester_account: 'second',
        requested_at: clock.now() - HOUR,
        settings: JSON.stringify([['ST', 45]]),
        before: JSON.stringify({ ST: null }),
        settings_hash: settingsHash(alarmDevice, { ST: 45 }),
        status: 'waiting',
        decided_by: null,
        decider_account: null,
        decided_at: null,
        meaning: null,
        signed_hash: null,
        cmd_id: null,
      })
      .execute();
    const app: FastifyInstance = await store.app({ now: clock.now });

    const serverAnswer = async (request: Recorded, token: string) => {
      const response = await app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US', ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(request.body === undefined ? {} : { payload: request.body }),
      });
      return { status: response.statusCode, json: response.body === '' ? undefined : (response.json() as unknown) };
    };
    const signIn = async (answer: typeof serverAnswer, account: string, password: string) => {
      const { json } = await answer({ method: 'POST', url: `${UPSTREAM}/login`, body: JSON.stringify({ Account: account, Code: password }) }, '');
      return String((json as { data: { token: string } }).data.token);
    };

    // Every role signs in to the server first (sign-ins are audited), then the mocks take what the server
    // holds, as the super administrator reads it.
    const serverTokens = new Map<string, string>();
    for (const { account, password } of ROLES) serverTokens.set(account, await signIn(serverAnswer, account, password));
    const adminToken = serverTokens.get(DEMO_ADMIN.account) ?? '';
    const tables = new Map<string, WireRecord[]>();
    for (const config of RESOURCE_CONFIGS) {
      const { json } =
        config.adapter === 'upstream'
          ? await serverAnswer({ method: 'POST', url: `${UPSTREAM}${config.endpoints.list}`, body: JSON.stringify({ current: 1, pageSize: 1000 }) }, adminToken)
          : await serverAnswer({ method: 'GET', url: `${REST}/${config.path ?? config.name}?range=${encodeURIComponent('[0,999]')}` }, adminToken);
      tables.set(config.name, recordsOf(config.adapter === 'upstream' ? (json as { data: unknown }).data : json));
    }
    const commandRecords = recordsOf((await serverAnswer({ method: 'GET', url: `${REST}/device-commands?range=${encodeURIComponent('[0,999]')}` }, adminToken)).json);
    const history = new Map<number, never[]>();
    const state: MockState = {
      tables,
      credentials: demoCredentials(),
      commands: { records: commandRecords, fates: {} },
      alarms: { history, condition: new Map((tables.get('alarms') ?? []).map((alarm) => [Number(alarm.id), true])) },
      userSettings: noUserSettings(),
      messages: new Map(),
      seededAt: clock.now(),
      frozen: true,
    };
    const mockHandlers = handlers(`${MOCK_ORIGIN}${UPSTREAM}`, `${MOCK_ORIGIN}${REST}`, { state });
    const mockAnswer = async (request: Recorded, token: string) => {
      const response = await getResponse(
        mockHandlers,
        new Request(`${MOCK_ORIGIN}${request.url}`, {
          method: request.method,
          headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US', 'content-type': 'application/json' },
          ...(request.body === undefined ? {} : { body: request.body }),
        }),
      );
      if (response === undefined) return undefined;
      const text = await response.text();
      return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
    };

    // The calls, recorded as the console's data provider makes them.
    const { provider, record } = recordingProvider();
    const first = (name: string) => (tables.get(name) ?? [])[0] ?? {};
    const calls: Call[] = [];
    const add = async (name: string, write: boolean, run: () => Promise<unknown>, config?: ResourceConfig) => {
      const requests = await record(run);
      expect(requests.length, `${name} makes a request`).toBeGreaterThan(0);
      for (const request of requests) calls.push({ name, request, write, ...(config ? { config } : {}) });
    };
    const routeResources = MENU_ROUTES.map((route) => RESOURCE_CONFIGS.find((config) => config.name === route.resource)).filter((config) => config !== undefined);
    for (const config of new Set([...RESOURCE_CONFIGS, ...routeResources])) {
      const sample = first(config.name);
      const id = recordId(config, sample);
      await add(`${config.name}.getList`, false, () => provider.getList(config.name, { pagination: { page: 1, perPage: 100 }, sort: config.defaultSort ?? { field: 'id', order: 'ASC' }, filter: {} }), config);
      await add(`${config.name}.getOne`, false, () => provider.getOne(config.name, { id }), config);
      if (serves(config, 'edit') && sourcesIn(config, 'edit').length > 0) {
        await add(`${config.name}.update`, true, () => provider.update(config.name, { id, data: sample, previousData: sample }), config);
      }
      if (serves(config, 'create') && sourcesIn(config, 'create').length > 0) {
        const made = CREATED[config.name];
        expect(made, `a record to create for ${config.name}`).toBeDefined();
        await add(`${config.name}.create`, true, () => provider.create(config.name, { data: made ?? {} }), config);
      }
    }
    const alarmId = Number(first('alarms').id);
    const order = (tables.get('orders') ?? []).find((candidate) => candidate.Id === alarmDevice && candidate.UseTime !== null) ?? first('orders');
    const openOrder = (tables.get('orders') ?? []).find((candidate) => candidate.UseTime === null && candidate.IsPass !== true) ?? first('orders');
    const CUSTOM: Record<string, { write: boolean; run: () => Promise<unknown> }> = {
      changePermission: { write: true, run: () => provider.changePermission({ Id: alarmDevice }) },
      changeState: { write: true, run: () => provider.changeState({ Id: alarmDevice, State: 'Stop' }) },
      changeSettings: { write: true, run: () => provider.changeSettings({ Id: alarmDevice, SP: 1.2 }) },
      commandOutcome: { write: false, run: () => provider.commandOutcome('parity-cmd-0001') },
      deviceCommandLog: { write: false, run: () => provider.deviceCommandLog(alarmDevice, 10) },
      // A range the server answers from raw readings: the demo seeder writes no rollups.
      deviceHistory: { write: false, run: () => provider.deviceHistory(alarmDevice, { from: clock.now() - HOUR / 6, to: clock.now(), points: 40 }) },
      resetPassword: { write: true, run: () => provider.resetPassword({ Account: 'client' }) },
      changeOwnPassword: { write: true, run: () => provider.changeOwnPassword({ OldCode: 'NotMine2026', NewCode: 'Parity2026x' }) },
      assignDevices: { write: true, run: () => provider.assignDevices({ Account: 'client', DeviceIds: [alarmDevice] }) },
      bookChamber: { write: true, run: () => provider.bookChamber({ Id: otherDevice, SetT: clock.now() + 3 * HOUR, OpenId: 'parity-guest-01' }) },
      cancelBooking: { write: true, run: () => provider.cancelBooking(Number(openOrder.id)) },
      sessionReport: { write: false, run: () => provider.sessionReport(Number(order.id)) },
      userMenu: { write: false, run: () => provider.userMenu() },
      messageList: { write: false, run: () => provider.messageList({ current: 1, pageSize: 10 }) },
      readMessages: { write: true, run: () => provider.readMessages({ ids: [1] }) },
      openAlarms: { write: false, run: () => provider.openAlarms() },
      alarmAction: { write: true, run: () => provider.alarmAction(alarmId, 'ack', { comment: 'seen' }) },
      alarmHistory: { write: false, run: () => provider.alarmHistory(alarmId) },
      alarmNotifications: { write: false, run: () => provider.alarmNotifications(alarmId) },
      // A channel that does not exist: no receiver is asked.
      sendTestNotification: { write: false, run: () => provider.sendTestNotification(999) },
      notificationPreferences: { write: false, run: () => provider.notificationPreferences() },
      saveNotificationPreferences: { write: true, run: () => provider.saveNotificationPreferences({ subscriptions: [], quietHours: null }) },
      fleetSummary: { write: false, run: () => provider.fleetSummary(0) },
      statsOverview: { write: false, run: () => provider.statsOverview({ from: clock.now() - 7 * 24 * HOUR, to: clock.now() + HOUR, tz: 0 }) },
      statsReadings: { write: false, run: () => provider.statsReadings({ from: clock.now() - 7 * 24 * HOUR, to: clock.now() + HOUR, tz: 0 }) },
      statsPivot: { write: false, run: () => provider.statsPivot({ from: clock.now() - 7 * 24 * HOUR, to: clock.now() + HOUR, tz: 0, measure: 'sessions', by: 'site' }) },
      rotateDeviceSecret: { write: true, run: () => provider.rotateDeviceSecret(otherDevice) },
      basicInfo: { write: false, run: () => provider.basicInfo() },
      saveBasicInfo: { write: true, run: () => provider.saveBasicInfo({ email: 'parity@example.com', nickname: 'Parity', countryRegion: 'China', area: 'Hangzhou', address: '', phone: '', profile: '' }) },
      certification: { write: false, run: () => provider.certification() },
      submitCertificate: { write: true, run: () => provider.submitCertificate({ number: 'PARITY-0001', issuer: 'Parity Board', expiresOn: '2099-12-31' }) },
      pendingCertificates: { write: false, run: () => provider.pendingCertificates() },
      decideCertificate: { write: true, run: () => provider.decideCertificate({ account: 'client', pass: true }) },
      openSessions: { write: false, run: () => provider.openSessions() },
      // A session no one has: both answer 40400, and every role's session goes on for the calls after it.
      revokeSession: { write: true, run: () => provider.revokeSession({ session: '0123456789abcdef' }) },
      // The first role creates the activity; the others are refused it by name, on both sides.
      submitChannelForm: { write: true, run: () => provider.submitChannelForm(VALID_STEP) },
      // A lowUser's request, then the amendment and the cancel of the one seeded above (number 1): only its requester's.
      requestSettings: { write: true, run: () => provider.requestSettings({ Id: alarmDevice, SP: 1.2 }) },
      amendSettingRequest: { write: true, run: () => provider.amendSettingRequest(1, { ST: 50, SL: 1 }) },
      settingRequestAction: { write: true, run: () => provider.settingRequestAction(1, 'cancel') },
      profileBasic: { write: false, run: () => provider.profileBasic() },
      operationLog: { write: false, run: () => provider.operationLog() },
    };
    const custom = Object.keys(provider).filter((method) => !['getList', 'getOne', 'getMany', 'getManyReference', 'create', 'update', 'updateMany', 'delete', 'deleteMany'].includes(method));
    // A new custom method fails here until it is given arguments above.
    expect(custom.filter((method) => !(method in CUSTOM))).toEqual([]);
    for (const method of custom) {
      const { write, run } = CUSTOM[method] ?? { write: false, run: async () => undefined };
      await add(method, write, run);
    }
    // The server's other names of calls, each sent as its call is.
    for (const [alias, target] of Object.entries(UPSTREAM_ALIASES)) {
      const original = calls.find((call) => call.request.url === `${UPSTREAM}${target}`)?.request ?? { method: 'POST', url: `${UPSTREAM}${target}`, body: '{}' };
      const body = alias === '/createUser' ? JSON.stringify({ Account: 'parity-alias', Code: 'Parity2026y', Level: 3 }) : original.body;
      calls.push({ name: `alias ${alias}`, request: { ...original, url: `${UPSTREAM}${alias}`, ...(body === undefined ? {} : { body }) }, write: alias !== '/getUserInfo' });
    }
    // Reads before writes; the password reset last, as it ends the reset account's sessions.
    const resets = (call: Call) => call.name === 'resetPassword' || call.name === 'alias /resetUserPwd';
    const ordered = [...calls.filter((call) => !call.write), ...calls.filter((call) => call.write && !resets(call)), ...calls.filter(resets)];

    const mockSignIn = async (request: Recorded, token: string) => (await mockAnswer(request, token)) ?? { status: 404, json: undefined };
    const tokens = await Promise.all(
      ROLES.map(async ({ account, password }) => ({ account, server: serverTokens.get(account) ?? '', mock: await signIn(mockSignIn, account, password) })),
    );
    const mismatches: string[] = [];
    for (const call of ordered) {
      for (const role of tokens) {
        const where = `${call.name} (${call.request.method} ${call.request.url.split('?')[0] ?? ''}) as ${role.account}`;
        const server = await serverAnswer(call.request, role.server);
        const mock = await mockAnswer(call.request, role.mock);
        if (mock === undefined) {
          mismatches.push(`${where}: the mocks do not answer it (the server: ${server.status})`);
          continue;
        }
        const code = (answer: { json: unknown }) => (typeof answer.json === 'object' && answer.json !== null ? (answer.json as { code?: unknown }).code : undefined);
        if (server.status !== mock.status || code(server) !== code(mock)) {
          mismatches.push(`${where}: server ${server.status}/${String(code(server))}, mocks ${mock.status}/${String(code(mock))}`);
          continue;
        }
        if (server.status >= 300) continue;
        const [serverPayload, mockPayload] = [payloadOf(call, server.json), payloadOf(call, mock.json)];
        if (call.config) {
          const schema = recordSchema(call.config);
          const bad = recordsOf(mockPayload).filter((each) => !schema.safeParse(each).success).length;
          if (bad > 0) mismatches.push(`${where}: ${bad} of the mocks' records fail the shared schema`);
        }
        if (JSON.stringify(shapeOf(serverPayload)) !== JSON.stringify(shapeOf(mockPayload))) {
          mismatches.push(`${where}: shapes differ: server ${JSON.stringify(shapeOf(serverPayload))}, mocks ${JSON.stringify(shapeOf(mockPayload))}`);
        }
        const [serverIds, mockIds] = [idsOf(call, serverPayload), idsOf(call, mockPayload)];
        if (serverIds.join() !== mockIds.join()) mismatches.push(`${where}: ids differ: server [${serverIds.join(', ')}], mocks [${mockIds.join(', ')}]`);
      }
    }
    vi.unstubAllGlobals();
    expect(mismatches).toEqual([]);
  });
});

/** A record each creatable resource's create form could send. */
const CREATED: Readonly<Record<string, WireRecord>> = {
  accounts: { Account: 'parity-new', Code: 'Parity2026zz', Level: 3 },
  devices: { Id: 'OC-PARITY', name: 'Parity', Type: 1, Location: 'Hall P' },
  'notification-channels': { name: 'Parity hook', type: 'slack', enabled: true, host: 'smtp.example.com', port: 25, tls: false, user: 'u', from: 'a@example.com', url: 'https://hooks.example.com/services/parity', secret: 'parity-secret' },
};
