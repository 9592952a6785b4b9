import { describe, expect, it } from 'vitest';
import { call, DEMO, envelope, tokenFor } from './http';
import { seedFleet } from './fleet';
import { useStore } from './stores';

/** Bad requests that fail outside a route's schema, and shared rules worded by the server. */
describe('request errors', () => {
  const store = useStore('sqlite');

  it('answers a malformed URL as bad input in the envelope, in the caller language, without echoing it', async () => {
    const app = await store.app();
    for (const [lang, text] of [
      ['en-US', 'request is invalid'],
      ['zh-CN', 'request 无效'],
    ] as const) {
      const response = await app.inject({ method: 'POST', url: '/upstream/list/%ZZ', headers: { 'accept-language': lang } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ data: null, status: 'fail', msg: text, code: 40000 });
    }
  });

  it('words the password rule when a new password breaks it', async () => {
    const app = await store.app();
    await seedFleet(app.ctx);
    const token = await tokenFor(app, DEMO.first.Account, DEMO.first.Code);
    const weak = await call(app, '/add_Admin', { Account: 'weakling', Code: 'alllowercase1', Level: 2 }, { token, lang: 'en-US' });
    expect(weak.statusCode).toBe(400);
    expect(envelope(weak).msg).toBe('Code needs at least 12 characters, no spaces, upper and lower case letters and digits');
  });
});
