import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/accounts/demo';
import { CSP_NONCE_PLACEHOLDER } from '../../src/domain/cspNonce';
import { connect } from './live-client';
import { DEMO, prefix, tokenFor } from './http';
import { useStore } from './stores';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const INDEX = `<!doctype html><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}"><script type="module" src="/assets/index-abc123.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script><div id="root"></div>`;

/** The CSP's directives by name, e.g. `style-src` → [`'self'`, `'nonce-…'`]. */
const directives = (headers: IncomingHttpHeaders | OutgoingHttpHeaders): Map<string, string[]> =>
  new Map(
    String(headers['content-security-policy'] ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name !== undefined && name !== '')
      .map(([name, ...values]) => [name ?? '', values]),
  );

/** What every response must carry, whatever its kind (docs/security.md, "Headers and CSP"). */
const expectSecurityHeaders = (headers: IncomingHttpHeaders | OutgoingHttpHeaders, what: string) => {
  const csp = directives(headers);
  expect(csp.get('default-src'), what).toEqual(["'self'"]);
  expect(csp.get('script-src'), what).toEqual(["'self'"]);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'none'"]);
  expect(csp.get('connect-src'), what).toEqual(["'self'"]);
  for (const values of csp.values()) {
    expect(values, what).not.toContain("'unsafe-inline'");
    expect(values, what).not.toContain("'unsafe-eval'");
  }
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['permissions-policy'], what).toMatch(/(^|, )camera=\(\)/);
  expect(headers['permissions-policy'], what).toMatch(/(^|, )microphone=\(\)/);
  expect(headers['permissions-policy'], what).toMatch(/(^|, )geolocation=\(\)/);
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
};

// The headers touch no store: SQLite suffices (the live stream's sign-in is the same code on both).
describe('security headers on every response', () => {
  const store = useStore('sqlite');
  let consoleDir = '';

  beforeAll(() => {
    consoleDir = mkdtempSync(path.join(store.dir, 'console-'));
    mkdirSync(path.join(consoleDir, 'assets'));
    writeFileSync(path.join(consoleDir, 'index.html'), INDEX);
    writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log("hi")');
  });
  afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

  it('on the console page, with a fresh style nonce per page that the page and its CSP share', async () => {
    const server = await store.app({ env: { CONSOLE_DIR: consoleDir } });
    const nonces = new Set<string>();
    for (const url of ['/', '/login', '/list/device-manager']) {
      const page = await server.inject({ method: 'GET', url, headers: HTML });
      expect(page.statusCode, url).toBe(200);
      expectSecurityHeaders(page.headers, url);
      const styleSrc = directives(page.headers).get('style-src') ?? [];
      expect(styleSrc[0]).toBe("'self'");
      const nonce = /^'nonce-([A-Za-z0-9+/]{22,}={0,2})'$/.exec(styleSrc[1] ?? '')?.[1];
      expect(nonce, `${url}: ${styleSrc.join(' ')}`).toBeDefined();
      expect(styleSrc).toHaveLength(2);
      expect(page.body).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(page.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
      nonces.add(nonce ?? '');
    }
    expect(nonces.size).toBe(3);
    // Never as a file, which would carry the placeholder instead of a nonce.
    const file = await server.inject({ method: 'GET', url: '/index.html' });
    expect(file.statusCode).toBe(404);
    expect(file.body).not.toContain(CSP_NONCE_PLACEHOLDER);
  });

  it('on static files, API answers and errors, whose CSP allows no inline style at all', async () => {
    const server = await store.app({ env: { CONSOLE_DIR: consoleDir } });
    await seedDemo(server.ctx);
    const token = await tokenFor(server, DEMO.admin.Account, DEMO.admin.Code);
    const auth = { authorization: `Bearer ${token}` };
    const cases = [
      { what: 'static asset', request: { method: 'GET' as const, url: '/assets/index-abc123.js' }, status: 200 },
      { what: 'health', request: { method: 'GET' as const, url: '/healthz' }, status: 200 },
      { what: 'upstream JSON', request: { method: 'POST' as const, url: `${prefix}/api/user/info`, headers: auth }, status: 200 },
      { what: 'REST JSON', request: { method: 'GET' as const, url: '/api/v1/alarm-rules', headers: auth }, status: 200 },
      { what: 'REST refusal', request: { method: 'GET' as const, url: '/api/v1/alarm-rules' }, status: 401 },
      { what: 'upstream bad input', request: { method: 'POST' as const, url: `${prefix}/api/user/login`, payload: '{' , headers: { 'content-type': 'application/json' } }, status: 400 },
      { what: 'unknown upstream path', request: { method: 'GET' as const, url: `${prefix}/nowhere` }, status: 404 },
      { what: 'missing file', request: { method: 'GET' as const, url: '/assets/missing-1.js' }, status: 404 },
      { what: 'malformed URL', request: { method: 'GET' as const, url: `${prefix}/%ZZ` }, status: 400 },
    ];
    for (const { what, request, status } of cases) {
      const response = await server.inject(request);
      expect(response.statusCode, what).toBe(status);
      expectSecurityHeaders(response.headers, what);
      expect(directives(response.headers).get('style-src'), what).toEqual(["'self'"]);
    }
  });

  it('on the live stream', async () => {
    const server = await store.app();
    await seedDemo(server.ctx);
    const token = await tokenFor(server, DEMO.admin.Account, DEMO.admin.Code);
    await server.listen({ port: 0, host: '127.0.0.1' });
    const stream = await connect(`http://127.0.0.1:${(server.server.address() as AddressInfo).port}`, token);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expectSecurityHeaders(stream.headers, 'live stream');
    stream.close();
  });

  it('sends HSTS and upgrade-insecure-requests only when told it sits behind TLS', async () => {
    const plain = await store.app({ env: { CONSOLE_DIR: consoleDir } });
    for (const url of ['/login', '/healthz']) {
      const response = await plain.inject({ method: 'GET', url, headers: HTML });
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
      expect(directives(response.headers).has('upgrade-insecure-requests'), url).toBe(false);
    }
    const behindTls = await store.app({ env: { CONSOLE_DIR: consoleDir, BEHIND_TLS: 'true' } });
    for (const url of ['/login', '/healthz', '/assets/index-abc123.js']) {
      const response = await behindTls.inject({ method: 'GET', url, headers: HTML });
      expect(response.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      expect(directives(response.headers).has('upgrade-insecure-requests'), url).toBe(true);
      expectSecurityHeaders(response.headers, url);
    }
  });
});
