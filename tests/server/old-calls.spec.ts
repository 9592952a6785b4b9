import type { FastifyInstance } from 'fastify';
import { getResponse, type RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import { demoState } from '../../mocks/demo';
import { handlers } from '../../mocks/handlers';
import { browserHandlers, MOCK_DELAY_MS } from '../../mocks/latency';
import { seedDemo } from '../../server/accounts/demo';
import { seedDemoFleet } from '../../server/demo/fleet';
import { DEMO_ACCOUNTS, DEMO_ADMIN, DEMO_ASSIGNMENTS } from '../../src/domain/demo';
import { CODES } from '../../src/domain/envelope';
import { FLEET_SUMMARY_PATH } from '../../src/domain/fleetSummary';
import { OLD_CALLS, type OldCall, type OldCallTarget } from '../../src/domain/oldCalls';
import { TEMPLATE_CALLS } from '../../src/domain/templateCalls';
import { USER_CENTER_CALLS, VISIT_NAMES } from '../../src/domain/userCenter';
import { fakeClock, STORE_KINDS, useStore } from './stores';

/**
 * Every mocked call of the old console (src/domain/oldCalls.ts, one row each) is answered: by the msw
 * mocks always, in its old shape; by the server too where the table says so, in the same shape, and where
 * it says not, the server answers it as an unknown call (so the table stays true). Each call is sent as
 * the old console sent it, signed in as `first`, a first-level administrator with chambers and accounts
 * below it.
 */

const UPSTREAM = '/upstream';
const ORIGIN = 'http://mocks.test';
const FIRST = DEMO_ACCOUNTS[0] ?? { account: 'first', password: 'First2026' };
const TARGET: OldCallTarget = { device: DEMO_ASSIGNMENTS.first?.[0] ?? '', account: FIRST.account, password: FIRST.password };

interface Answer {
  status: number;
  body: { code?: number; data?: unknown; msg?: string };
}

const urlOf = (call: OldCall) => `${UPSTREAM}${call.path}${call.query === undefined ? '' : `?${new URLSearchParams(call.query).toString()}`}`;
const payloadOf = (call: OldCall) => (call.body === undefined ? undefined : JSON.stringify(call.body(TARGET)));
const describeCall = (call: OldCall) => `${call.method} ${call.path} (${call.owner})`;

const mockAnswer = async (all: RequestHandler[], call: OldCall, token: string, lang = 'en-US'): Promise<Answer | undefined> => {
  const payload = payloadOf(call);
  const response = await getResponse(
    all,
    new Request(`${ORIGIN}${urlOf(call)}`, {
      method: call.method,
      headers: { authorization: `Bearer ${token}`, 'accept-language': lang, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { body: payload }),
    }),
  );
  return response === undefined ? undefined : { status: response.status, body: (await response.json()) as Answer['body'] };
};

const serverAnswer = async (app: FastifyInstance, call: OldCall, token: string, lang = 'en-US'): Promise<Answer> => {
  const payload = payloadOf(call);
  const response = await app.inject({
    method: call.method,
    url: urlOf(call),
    headers: { authorization: `Bearer ${token}`, 'accept-language': lang, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload }),
  });
  return { status: response.statusCode, body: response.json<Answer['body']>() };
};

const LOGIN = OLD_CALLS.find((call) => call.path === '/login');
const tokenOf = (answer: Answer | undefined) => String((answer?.body.data as { token?: string } | undefined)?.token ?? '');

/** The answer is a success whose data has the call's old shape (where the table holds it). */
const expectAnswered = (call: OldCall, answer: Answer | undefined) => {
  expect.soft(answer?.body.code, `${describeCall(call)}: ${JSON.stringify(answer?.body)}`).toBe(CODES.ok);
  if (call.shape === undefined || answer?.body.code !== CODES.ok) return;
  const shaped = call.shape.safeParse(answer.body.data);
  expect.soft(shaped.success ? [] : shaped.error.issues, `${describeCall(call)}: the old shape`).toEqual([]);
};

const mockSide = (now: number) => [...handlers(`${ORIGIN}${UPSTREAM}`, `${ORIGIN}/api/v1`, { state: demoState(now) })];

describe('the msw mocks answer every old call in its old shape', () => {
  const all = mockSide(Date.now());
  let token = '';

  it.each(OLD_CALLS.map((call) => [describeCall(call), call] as const))('%s', async (_name, call) => {
    if (token === '' && LOGIN !== undefined) token = tokenOf(await mockAnswer(all, LOGIN, ''));
    expectAnswered(call, await mockAnswer(all, call, call.public ? '' : token));
  });

  it('pages the policies as the old mocks did: page 1 of 10 by default, 55 in all', async () => {
    const signedIn = tokenOf(await mockAnswer(all, LOGIN as OldCall, ''));
    const policy = (query?: Record<string, string>) => mockAnswer(all, { method: 'GET', path: TEMPLATE_CALLS.policy, owner: 'old-calls', server: false, ...(query ? { query } : {}) }, signedIn);
    const first = (await policy())?.body.data as { list: { id: string }[]; total: number };
    const last = (await policy({ current: '6', pageSize: '10' }))?.body.data as { list: { id: string }[]; total: number };
    expect([first.list.length, first.total, last.list.length, last.total]).toEqual([10, 55, 5, 55]);
    expect((await policy({ pageSize: 'many' }))?.body.code).toBe(CODES.badInput);
  });

  it('refuses the template calls without a sign-in, as every other call', async () => {
    const answer = await mockAnswer(all, { method: 'POST', path: TEMPLATE_CALLS.chat, owner: 'old-calls', server: false }, '');
    expect(answer?.body.code).toBe(CODES.notSignedIn);
  });

  it(`answers the old calls after ${MOCK_DELAY_MS.min} to ${MOCK_DELAY_MS.max} ms in the browser, as the old mocks did, and the REST API at once`, async () => {
    const browser = browserHandlers(`${ORIGIN}${UPSTREAM}`, `${ORIGIN}/api/v1`, { state: demoState(Date.now()) });
    const timed = async (send: () => Promise<unknown>) => {
      const started = performance.now();
      const answer = await send();
      return { answer, took: performance.now() - started };
    };
    const login = await timed(() => mockAnswer(browser, LOGIN as OldCall, ''));
    expect((login.answer as Answer).body.code).toBe(CODES.ok);
    expect(login.took).toBeGreaterThanOrEqual(MOCK_DELAY_MS.min - 5);
    expect(login.took).toBeLessThan(MOCK_DELAY_MS.max + 500);
    const signedIn = tokenOf(login.answer as Answer);
    const summary = await timed(() => getResponse(browser, new Request(`${ORIGIN}/api/v1/${FLEET_SUMMARY_PATH}?tz=0`, { headers: { authorization: `Bearer ${signedIn}` } })));
    expect((summary.answer as Response | undefined)?.status).toBe(200);
    expect(summary.took).toBeLessThan(MOCK_DELAY_MS.min / 2);
  });
});

describe.each(STORE_KINDS)('the server answers the old calls the table gives it (%s)', (kind) => {
  const store = useStore(kind);

  const signedInApp = async () => {
    const clock = fakeClock(Date.now());
    const ctx = store.context(undefined, clock.now);
    await seedDemo(ctx);
    await seedDemoFleet(ctx, { recordsPerDevice: 2, orders: 20 });
    const app = await store.app({ now: clock.now });
    const token = tokenOf(await serverAnswer(app, LOGIN as OldCall, ''));
    return { app, token };
  };

  it('each call in its old shape, and none it leaves to the mocks', { timeout: 60_000 }, async () => {
    const { app, token } = await signedInApp();
    for (const call of OLD_CALLS) {
      const answer = await serverAnswer(app, call, call.public ? '' : token);
      if (call.server) expectAnswered(call, answer);
      else expect.soft(answer.body.code, `${describeCall(call)} is the mocks' alone`).toBe(CODES.notFound);
    }
  });

  it('answers the chambers and teams of each demo role as the mocks do', async () => {
    const { app } = await signedInApp();
    const mocks = mockSide(Date.now());
    const asCall = (path: string): OldCall => ({ method: 'POST', path, owner: 'old-calls', server: true });
    for (const { account, password } of [DEMO_ADMIN, ...DEMO_ACCOUNTS]) {
      const signIn = { ...(LOGIN as OldCall), body: () => ({ Account: account, Code: password }) };
      const [serverToken, mockToken] = [tokenOf(await serverAnswer(app, signIn, '')), tokenOf(await mockAnswer(mocks, signIn, ''))];
      const both = async (path: string) => [(await serverAnswer(app, asCall(path), serverToken)).body.data, (await mockAnswer(mocks, asCall(path), mockToken))?.body.data];
      const [serverProjects, mockProjects] = await both(USER_CENTER_CALLS.myProjects);
      expect(serverProjects, account).toEqual(mockProjects);
      const teams = (data: unknown) => (data as { name: string; peopleNumber: number }[]).map(({ name, peopleNumber }) => ({ name, peopleNumber }));
      const [serverTeams, mockTeams] = await both(USER_CENTER_CALLS.myTeams);
      expect(teams(serverTeams), account).toEqual(teams(mockTeams));
    }
  });

  it("answers the user centre from the caller's fleet, scope and trail, in its language", async () => {
    const { app, token } = await signedInApp();
    const post = async (path: string, lang?: string) => (await serverAnswer(app, { method: 'POST', path, owner: 'old-calls', server: true }, token, lang)).body.data;
    const changed = await serverAnswer(app, { method: 'POST', path: '/order/change_state', owner: 'built', server: true, body: ({ device }) => ({ Id: device, State: 'Repair' }) }, token);
    expect(changed.body.code).toBe(CODES.ok);

    const projects = (await post(USER_CENTER_CALLS.myProjects)) as { description: string; contributors: { name: string }[] }[];
    expect(projects.map((project) => project.description.split(' · ')[0])).toEqual([...(DEMO_ASSIGNMENTS.first ?? [])].sort());
    // first's own chambers, managed by it and, for the first two, by second and client below it.
    expect(projects[0]?.contributors.map((contributor) => contributor.name)).toEqual(['client', 'first', 'second']);
    expect(await post(USER_CENTER_CALLS.myTeams)).toEqual([expect.objectContaining({ name: 'second', peopleNumber: 2 })]);
    const activity = (await post(USER_CENTER_CALLS.latestActivity, 'zh-CN')) as { title: string; description: string }[];
    expect(activity[0]?.description).toContain(TARGET.device);
    expect(activity.some((entry) => entry.title.startsWith('auth.') || entry.title === '登录')).toBe(false);
    const visits = (await post(USER_CENTER_CALLS.visits, 'zh-CN')) as { name: string }[];
    expect(visits.map((figure) => figure.name)).toEqual([VISIT_NAMES['zh-CN'].sessions, VISIT_NAMES['zh-CN'].bookings]);

    const client = tokenOf(await serverAnswer(app, { ...(LOGIN as OldCall), body: () => ({ Account: 'client', Code: 'Client2026' }) }, ''));
    const list = await serverAnswer(app, OLD_CALLS.find((call) => call.path === '/list/user') as OldCall, client);
    expect(list.body.code).toBe(CODES.forbidden);
  });
});
