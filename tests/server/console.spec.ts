import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { seedDemo } from '../../server/accounts/demo';
import { DEMO, envelope, login, type LoginData } from './http';
import { useStore } from './stores';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const INDEX = '<!doctype html><title>Oxygen Console</title><div id="root"></div>';
const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(500))};`;

// Serving files touches no store, so SQLite suffices here.
describe('static console and history fallback', () => {
  const store = useStore('sqlite');
  let consoleDir = '';

  beforeAll(() => {
    consoleDir = mkdtempSync(path.join(store.dir, 'console-'));
    mkdirSync(path.join(consoleDir, 'assets'));
    writeFileSync(path.join(consoleDir, 'index.html'), INDEX);
    writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log("hi")');
    writeFileSync(path.join(consoleDir, 'favicon.svg'), '<svg/>');
    // As the build writes them: a brotli and a gzip copy beside the script.
    writeFileSync(path.join(consoleDir, 'assets', 'chunk-def456.js'), SCRIPT);
    writeFileSync(path.join(consoleDir, 'assets', 'chunk-def456.js.br'), brotliCompressSync(SCRIPT));
    writeFileSync(path.join(consoleDir, 'assets', 'chunk-def456.js.gz'), gzipSync(SCRIPT));
  });
  afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

  const app = () => store.app({ env: { CONSOLE_DIR: consoleDir } });

  it('serves index.html for the console routes, e.g. /list/device-manager', async () => {
    const server = await app();
    for (const url of ['/list/device-manager', '/dashboard/workplace', '/login?redirect=x', '/']) {
      const response = await server.inject({ method: 'GET', url, headers: HTML });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toBe(INDEX);
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    const head = await server.inject({ method: 'HEAD', url: '/other/manager', headers: HTML });
    expect(head.statusCode).toBe(200);
  });

  it('serves files, hashed assets cached for long', async () => {
    const server = await app();
    const asset = await server.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("hi")');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await server.inject({ method: 'GET', url: '/favicon.svg' })).statusCode).toBe(200);
  });

  it('sends the precompressed copy the browser accepts, brotli first, and says it varies by encoding', async () => {
    const server = await app();
    const url = '/assets/chunk-def456.js';
    const cases = [
      { accept: 'gzip, deflate, br, zstd', encoding: 'br', decode: brotliDecompressSync },
      { accept: 'gzip, deflate', encoding: 'gzip', decode: gunzipSync },
    ];
    for (const { accept, encoding, decode } of cases) {
      const response = await server.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['content-encoding'], accept).toBe(encoding);
      expect(response.headers['content-type']).toMatch(/^(text|application)\/javascript/);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(decode(response.rawPayload).toString()).toBe(SCRIPT);
    }
    const plain = await server.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('does not fall back for the APIs, files, non-HTML requests or other methods', async () => {
    const server = await app();
    const upstream = await server.inject({ method: 'GET', url: '/upstream/x', headers: HTML });
    expect(upstream.statusCode).toBe(404);
    expect(envelope(upstream).code).toBe(CODES.notFound);

    const cases = [
      { method: 'GET' as const, url: '/app.js', headers: HTML },
      { method: 'GET' as const, url: '/assets/missing-1.css', headers: HTML },
      { method: 'GET' as const, url: '/api/v1/devices', headers: HTML },
      { method: 'GET' as const, url: '/api', headers: HTML },
      { method: 'GET' as const, url: '/list/device-manager', headers: { accept: 'application/json' } },
      { method: 'POST' as const, url: '/list/device-manager', headers: HTML },
    ];
    for (const request of cases) {
      const response = await server.inject(request);
      expect(response.statusCode, `${request.method} ${request.url}`).toBe(404);
      expect(response.body).not.toContain('Oxygen Console');
    }
  });

  it('starts without a built console: the API works, pages answer 503 saying to build', async () => {
    const server = await store.app({ env: { CONSOLE_DIR: path.join(store.dir, 'not-built') } });
    const page = await server.inject({ method: 'GET', url: '/list/device-manager', headers: HTML });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toMatch(/^text\/plain/);
    expect(page.body).toContain('npm run build');
    expect((await server.inject({ method: 'GET', url: '/app.js', headers: HTML })).statusCode).toBe(404);

    expect((await server.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    await seedDemo(server.ctx);
    expect(envelope<LoginData>(await login(server, DEMO.admin.Account, DEMO.admin.Code)).data.State).toBe(true);
  });
});
