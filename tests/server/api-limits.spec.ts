import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { call, DEMO, envelope, login, tokenFor } from './http';
import { connect } from './live-client';
import { seedFleet } from './fleet';
import { STORE_KINDS, useStore } from './stores';
import type { Env } from '../../server/config';

/**
 * What the API holds to (docs/server-auth.md): the password rule for chosen passwords, `no-store` on
 * answers carrying secrets, /healthz telling liveness alone, the rate limits (429, 42900, Retry-After) and
 * the cap on live streams per session.
 */
describe.each(STORE_KINDS)('API limits and secrets (%s)', (kind) => {
  const store = useStore(kind);

  const fleetApp = async (env: Env = {}): Promise<FastifyInstance> => {
    await store.wipe();
    await seedFleet(store.context());
    return store.app({ env });
  };

  const rest = (app: FastifyInstance, method: 'GET' | 'POST', url: string, token: string, body?: unknown) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  describe('the password rule', () => {
    const add = (app: FastifyInstance, token: string, Code: string, lang: string) =>
      call(app, '/add_Admin', { Account: `new-${Code.length}`, Code, Level: 3 }, { token, lang });

    it('refuses a chosen password shorter than PASSWORD_MIN_LENGTH, naming the field and the length, in both languages', async () => {
      const app = await fleetApp();
      const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
      const en = await add(app, token, 'Abc123', 'en-US');
      expect(en.statusCode).toBe(400);
      expect(envelope(en)).toMatchObject({ code: CODES.badInput, msg: 'Code needs at least 12 characters, no spaces, upper and lower case letters and digits' });
      expect(envelope(await add(app, token, 'Chamber2026', 'zh-CN')).msg).toBe('Code 至少 12 个字符，不含空格，须包含大写字母、小写字母和数字');
      // The length in force is the configuration's, and the user info tells the console.
      const longer = await fleetApp({ PASSWORD_MIN_LENGTH: '16' });
      const longerToken = await tokenFor(longer, DEMO.first.Account, DEMO.first.Code);
      expect(envelope(await add(longer, longerToken, 'Chamber2026ox', 'en-US')).msg).toMatch(/^Code needs at least 16 characters/);
      expect(envelope<{ passwordMinLength: number }>(await call(longer, '/api/user/info', undefined, { token: longerToken })).data.passwordMinLength).toBe(16);
      expect(envelope(await add(longer, longerToken, 'Chamber2026oxygen', 'en-US')).code).toBe(CODES.ok);
    });

    it('refuses a common or breached password, whatever its case, in both languages; the same at a password change', async () => {
      const app = await fleetApp();
      const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
      const en = await add(app, token, 'Password1234', 'en-US');
      expect(envelope(en)).toMatchObject({ code: CODES.badInput, msg: 'Code is on a list of common or breached passwords: choose another' });
      expect(envelope(await add(app, token, 'Qwerty123456', 'zh-CN')).msg).toBe('Code 属于常见或已泄露的密码，请另选一个');
      const change = await call(app, '/code/self_reset_Code', { OldCode: DEMO.first.Code, NewCode: 'Password1234' }, { token, lang: 'en-US' });
      expect(envelope(change)).toMatchObject({ code: CODES.badInput, msg: 'NewCode is on a list of common or breached passwords: choose another' });
      expect(envelope(await add(app, token, 'Chamber2026ox', 'en-US')).code).toBe(CODES.ok);
    });
  });

  describe('answers that carry secrets', () => {
    it('are never stored by a cache: sign-in, an administrator\'s reset, a device\'s registration and its new secret', async () => {
      const app = await fleetApp();
      const signIn = await login(app, DEMO.admin.Account, DEMO.admin.Code);
      expect(signIn.headers['cache-control']).toBe('no-store');
      const token = await tokenFor(app, DEMO.admin.Account, DEMO.admin.Code);
      const reset = await call(app, '/code/Admin_reset_Code', { Account: 'client' }, { token });
      expect(envelope<{ NewCode: string }>(reset).data.NewCode).toBeTypeOf('string');
      expect(reset.headers['cache-control']).toBe('no-store');
      const registered = await rest(app, 'POST', '/devices', token, { Id: 'OC-Z9', name: 'Spare', Type: 1, Location: 'Store room' });
      expect(registered.statusCode).toBe(201);
      expect(registered.headers['cache-control']).toBe('no-store');
      const rotated = await rest(app, 'POST', '/devices/OC-Z9/secret', token);
      expect(rotated.json<{ secret: string }>().secret).toBeTypeOf('string');
      expect(rotated.headers['cache-control']).toBe('no-store');
      // A refusal too, and a failed sign-in.
      expect((await login(app, 'admin', 'Wrong2026wrong')).headers['cache-control']).toBe('no-store');
    });
  });

  describe('/healthz', () => {
    it('answers liveness alone to anyone; the counters only with a super administrator\'s token', async () => {
      const app = await fleetApp();
      const anonymous = await app.inject({ method: 'GET', url: '/healthz' });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.json()).toEqual({ status: 'ok' });
      const first = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
      const lower = await app.inject({ method: 'GET', url: '/healthz', headers: { authorization: `Bearer ${first}` } });
      expect(lower.statusCode).toBe(403);
      expect(lower.json()).toMatchObject({ code: CODES.forbidden });
      const dead = await app.inject({ method: 'GET', url: '/healthz', headers: { authorization: `Bearer ${'A'.repeat(43)}` } });
      expect(dead.statusCode).toBe(401);
      const admin = await tokenFor(app, DEMO.admin.Account, DEMO.admin.Code);
      expect((await app.inject({ method: 'GET', url: '/healthz', headers: { authorization: `Bearer ${admin}` } })).json()).toEqual({ status: 'ok' });
    });
  });

  describe('rate limits', () => {
    it('answers a session past API_RATE_PER_MINUTE with 429, 42900 in its language and Retry-After; other sessions go on', async () => {
      const app = await fleetApp({ API_RATE_PER_MINUTE: '3' });
      const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
      for (let i = 0; i < 3; i += 1) expect((await call(app, '/api/user/info', undefined, { token })).statusCode).toBe(200);
      const limited = await call(app, '/api/user/info', undefined, { token, lang: 'en-US' });
      expect(limited.statusCode).toBe(429);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(envelope(limited)).toEqual({ data: null, status: 'fail', code: CODES.tooManyAttempts, msg: `too many requests: wait ${retryAfter} s before trying again` });
      expect(envelope(await call(app, '/api/user/info', undefined, { token, lang: 'zh-CN' })).msg).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
      // The REST API counts in the same bucket and answers in its own shape.
      const restLimited = await rest(app, 'GET', '/device-types', token);
      expect(restLimited.statusCode).toBe(429);
      expect(restLimited.json()).toMatchObject({ code: CODES.tooManyAttempts });
      expect(restLimited.headers['retry-after']).toBeDefined();
      // Another session of another account is not slowed.
      const other = await tokenFor(app, DEMO.second.Account, DEMO.second.Code);
      expect((await call(app, '/api/user/info', undefined, { token: other })).statusCode).toBe(200);
    });

    it('counts calls without a live session per address, made-up tokens included; /healthz is not counted', async () => {
      const app = await fleetApp({ API_RATE_PER_ADDRESS_PER_MINUTE: '3' });
      const guesser = '203.0.113.9';
      for (let i = 0; i < 3; i += 1) {
        const token = `${String(i).repeat(43)}`.slice(0, 43);
        expect((await call(app, '/api/user/info', undefined, { token, address: guesser })).statusCode).toBe(401);
      }
      const limited = await login(app, DEMO.first.Account, DEMO.first.Code, { address: guesser });
      expect(limited.statusCode).toBe(429);
      expect(envelope(limited).code).toBe(CODES.tooManyAttempts);
      expect(limited.headers['retry-after']).toBeDefined();
      expect((await app.inject({ method: 'GET', url: '/healthz', remoteAddress: guesser })).statusCode).toBe(200);
      // Another address signs in.
      expect((await login(app, DEMO.first.Account, DEMO.first.Code, { address: '198.51.100.3' })).statusCode).toBe(200);
    });
  });

  describe('live streams', () => {
    it('holds a session to LIVE_STREAMS_PER_SESSION streams: the next is 429 with 42900 and Retry-After until one closes', async () => {
      const app = await fleetApp({ LIVE_STREAMS_PER_SESSION: '2' });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
      const first = await connect(base, token);
      const second = await connect(base, token);
      expect([first.status, second.status]).toEqual([200, 200]);
      const third = await connect(base, token);
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('30');
      // Another session of the same account has its own streams.
      expect((await connect(base, await tokenFor(app, DEMO.first.Account, DEMO.first.Code))).status).toBe(200);
      first.close();
      await first.ended;
      await expect.poll(async () => (await connect(base, token)).status).toBe(200);
    });
  });
});
