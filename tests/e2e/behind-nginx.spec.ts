import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventStreamParser } from '../../src/domain/eventStream';
import { topicFor } from '../../src/domain/mqtt/topics';
import { deviceRow } from '../server/fleet';
import { endBrokerSessions, killServers, ROOT, startServer, type ServerProcess } from '../server/server-process';
import { useStore } from '../server/stores';
import { throwawayCertificate } from '../server/tls-certificate';
import { fillSignIn, freePort, launchChromium } from './harness';

/**
 * Two compiled instances (dist/server, `npm run build`) on one throwaway PostgreSQL database and this
 * machine's Mosquitto, behind Debian's nginx (/usr/sbin/nginx, or NGINX_PATH) run as a process of this
 * test with the site file of docs/scaling.md: its addresses, ports and certificate replaced, nothing else.
 * The test's requests come from 127.0.0.2, nginx's from 127.0.0.1 (TRUST_PROXY), so the audit trail shows
 * which address it believed.
 */

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const BROKER_URL = process.env.TEST_MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const RUN = randomBytes(3).toString('hex');
const ADMIN = { Account: 'admin', Code: 'BehindNginx2026' };
const DEVICE = `NG${RUN}`;
const CLIENT_ADDRESS = '127.0.0.2';

/** The site file of docs/scaling.md, "nginx". */
const siteFile = (): string => {
  const doc = readFileSync(path.join(ROOT, 'docs/scaling.md'), 'utf8');
  const match = /`\/etc\/nginx\/conf\.d\/oxygen\.conf`[^\n]*\n(?:[^\n]*\n)*?```nginx\n([\s\S]*?)```/.exec(doc);
  if (match?.[1] === undefined) throw new Error('docs/scaling.md has no nginx block after `/etc/nginx/conf.d/oxygen.conf`');
  return match[1];
};

interface Answer {
  status: number;
  body: string;
}

describe('two instances behind nginx, configured as docs/scaling.md says', () => {
  const store = useStore('postgres');
  let dir = '';
  let cert = { certFile: '', keyFile: '' };
  let nginx: ChildProcess | undefined;
  let nginxLog = '';
  let httpsPort = 0;
  let browser: Browser | undefined;
  const instances: ServerProcess[] = [];

  /** A request through nginx from CLIENT_ADDRESS, trusting the throwaway certificate. */
  const send = (method: string, route: string, headers: Record<string, string> = {}, body?: unknown): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port: httpsPort, path: route, method, localAddress: CLIENT_ADDRESS, ca: readFileSync(cert.certFile), agent: false, headers: { 'content-type': 'application/json', ...headers } });
      outgoing.once('response', resolve);
      outgoing.once('error', reject);
      outgoing.end(body === undefined ? undefined : JSON.stringify(body));
    });
  const answer = async (response: IncomingMessage): Promise<Answer> => {
    let body = '';
    for await (const chunk of response) body += String(chunk);
    return { status: response.statusCode ?? 0, body };
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'oxygen-nginx-'));
    // nginx's workers run as another user when the test runs as root: they read and write below it.
    chmodSync(dir, 0o755);
    cert = throwawayCertificate(dir);
    await store.database.db.insertInto('devices').values(deviceRow(DEVICE, DEVICE, 1, 'Behind nginx', 'Work')).execute();
    const { database } = store.config();
    if (database.kind !== 'postgres') throw new Error('the store is PostgreSQL');
    const [a, b] = await Promise.all(
      ['a', 'b'].map((name) =>
        startServer({
          compiled: path.join(ROOT, 'dist/server'),
          env: {
            DATABASE_URL: database.url,
            ADMIN_PASSWORD: ADMIN.Code,
            MQTT_URL: BROKER_URL,
            MQTT_CLIENT_ID: `oxygen.test.${RUN}.${name}`,
            MQTT_SHARE_GROUP: `oxygen-test-${RUN}`,
            TRUST_PROXY: '127.0.0.1',
            BEHIND_TLS: 'true',
          },
        }),
      ),
    );
    if (a === undefined || b === undefined) throw new Error('two instances');
    instances.push(a, b);

    httpsPort = await freePort();
    const site = siteFile()
      .replace('server 10.0.0.11:8080;', `server 127.0.0.1:${a.port};`)
      .replace('server 10.0.0.12:8080;', `server 127.0.0.1:${b.port};`)
      .replace('listen 80;', `listen 127.0.0.1:${await freePort()};`)
      .replace('listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`)
      .replace('/etc/nginx/tls/console.crt', cert.certFile)
      .replace('/etc/nginx/tls/console.key', cert.keyFile);
    const temp = (name: string) => {
      mkdirSync(path.join(dir, name), { mode: 0o777 });
      chmodSync(path.join(dir, name), 0o777);
      return path.join(dir, name);
    };
    const conf = [
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${path.join(dir, 'error.log')} warn;`,
      'events {}',
      'http {',
      '  access_log off;',
      `  client_body_temp_path ${temp('body')};`,
      `  proxy_temp_path ${temp('proxy')};`,
      `  fastcgi_temp_path ${temp('fastcgi')};`,
      `  uwsgi_temp_path ${temp('uwsgi')};`,
      `  scgi_temp_path ${temp('scgi')};`,
      site,
      '}',
    ].join('\n');
    writeFileSync(path.join(dir, 'nginx.conf'), conf);
    nginx = spawn(NGINX, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
    nginx.stderr?.on('data', (chunk: Buffer) => (nginxLog += chunk.toString()));
    for (const deadline = Date.now() + 10_000; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
      if (nginx.exitCode !== null) throw new Error(`nginx exited (${nginx.exitCode}): ${nginxLog}`);
      if ((await send('GET', '/healthz').then(answer, () => undefined))?.status === 200) break;
      if (Date.now() > deadline) throw new Error(`nginx did not answer: ${nginxLog}`);
    }
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    nginx?.kill('SIGTERM');
    killServers();
    await endBrokerSessions(BROKER_URL, ['a', 'b'].map((name) => `oxygen.test.${RUN}.${name}`));
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('the console signs in through nginx', async () => {
    const context = await (browser as Browser).newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(`https://127.0.0.1:${httpsPort}/login`);
    await fillSignIn(page, ADMIN.Account, ADMIN.Code);
    await page.waitForURL('**/dashboard/workplace');
    await context.close();
  });

  it("records the browser's address in the audit trail through TRUST_PROXY, not nginx's nor a forged one", async () => {
    const signIn = await answer(await send('POST', '/upstream/login', { 'x-forwarded-for': '203.0.113.9' }, ADMIN));
    expect(JSON.parse(signIn.body)).toMatchObject({ code: 20000 });
    const entries = await store.database.db.selectFrom('audit_log').select('address').where('action', '=', 'auth.signIn').orderBy('id', 'desc').limit(1).execute();
    expect(entries).toEqual([{ address: CLIENT_ADDRESS }]);
  });

  it('passes the live stream on as it is written, not when it closes', async () => {
    const signIn = JSON.parse((await answer(await send('POST', '/upstream/login', {}, ADMIN))).body) as { data: { token: string } };
    const stream = await send('GET', '/api/v1/live', { accept: 'text/event-stream', authorization: `Bearer ${signIn.data.token}` });
    expect(stream.statusCode).toBe(200);
    const events: { event: string; data: unknown; at: number }[] = [];
    const parser = createEventStreamParser(({ event, data }) => events.push({ event, data: JSON.parse(data), at: Date.now() }));
    stream.setEncoding('utf8');
    stream.on('data', (text: string) => parser.push(text));
    let closed = false;
    stream.once('close', () => (closed = true));
    const arrived = async (done: () => boolean, what: string) => {
      for (const deadline = Date.now() + 5000; !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (Date.now() > deadline) throw new Error(`${what} did not arrive: ${JSON.stringify(events)}`);
      }
    };
    await arrived(() => events.some((message) => message.event === 'ready'), 'the ready event');

    const chamber = await mqtt.connectAsync(BROKER_URL, { clientId: DEVICE, reconnectPeriod: 0 });
    try {
      for (const value of [21, 22]) {
        const sentAt = Date.now();
        await chamber.publishAsync(topicFor(DEVICE, 'telemetry'), JSON.stringify({ Time: sentAt, RCP: 1.2, SP: 1.3, RCPi02: value }), { qos: 1 });
        await arrived(() => events.some((message) => message.event === 'device' && (message.data as { Reading?: { RCPi02?: number } }).Reading?.RCPi02 === value), `the reading ${value}`);
        // Well before the 15 s heartbeat or a buffer filling up would have pushed it out.
        const shown = events.find((message) => (message.data as { Reading?: { RCPi02?: number } }).Reading?.RCPi02 === value);
        expect((shown?.at ?? Infinity) - sentAt).toBeLessThan(2000);
      }
      expect(closed).toBe(false);
    } finally {
      stream.destroy();
      await chamber.endAsync();
    }
  });
});
