import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import mqtt from 'mqtt';
import type { Page } from 'playwright-core';
import { tokenOf } from '../tests/e2e/chambers';
import { freePort, launchChromium, postTo, signIn, startServer } from '../tests/e2e/harness';
import { httpReceiver, smtpReceiver } from '../tests/server/receivers';

/**
 * The screenshots and received bodies of docs/notifications.md, from a real run (after `npm run build`):
 * `node --import tsx scripts/notification-shots.ts`. The demo server on a temp store and free ports, one
 * channel of each type pointing at local receivers, a chamber publishing high oxygen over MQTT, the
 * delivery worker sending, one escalation step (a minute), then Chromium on the console's pages. Writes
 * the PNGs to docs/images/notifications/ and what the receivers took, secrets masked, into the doc's
 * `<!-- received:NAME -->` blocks.
 */

const OUT = path.resolve(import.meta.dirname, '../docs/images/notifications');
const DOC = path.resolve(import.meta.dirname, '../docs/notifications.md');
const CHAMBER = 'DOC-N1';
const VIEWPORT = { width: 1200, height: 640 };
const PUBLIC_URL = 'https://oxygen.example.com';

const rest = async (url: string, token: string, method: string, body?: unknown): Promise<unknown> => {
  const response = await fetch(`${url}/api/v1${method.split(' ')[1]}`, {
    method: method.split(' ')[0],
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method}: ${response.status} ${text}`);
  return JSON.parse(text) as unknown;
};

const waitFor = async (what: string, ready: () => Promise<boolean> | boolean, withinMs: number): Promise<void> => {
  const deadline = Date.now() + withinMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
};

/** The received text with the receivers' secrets and the robot keys in their URLs masked. */
const masked = (text: string, secrets: string[]): string => secrets.reduce((out, secret) => out.replaceAll(secret, '••••'), text);

const main = async (): Promise<void> => {
  mkdirSync(OUT, { recursive: true });
  const [hook, smtp, mqttPort] = await Promise.all([httpReceiver(), smtpReceiver(), freePort()]);
  hook.answer = (request) => ({ status: 200, body: request.path === '/slack' ? 'ok' : '{"errcode":0,"errmsg":"ok"}' });
  const server = await startServer(['--demo'], {
    MQTT_PORT: String(mqttPort),
    NOTIFY_LOCALE: 'en-US',
    NOTIFY_ESCALATE_HIGH_MINUTES: '1',
    CONSOLE_PUBLIC_URL: PUBLIC_URL,
  });
  const browser = await launchChromium();
  try {
    const { url } = server;
    const admin = await tokenOf(url, 'admin', 'Admin2026');
    const { secret } = (await rest(url, admin, 'POST /devices', { Id: CHAMBER, name: 'North One', Type: 1, Location: 'Hall N' })) as { secret: string };
    await postTo(url, '/upstream/assign_Devices', { Account: 'client', DeviceIds: [CHAMBER] }, admin);

    const channels: Record<string, unknown>[] = [
      { name: 'Ward mail', type: 'email', enabled: true, host: '127.0.0.1', port: smtp.port, tls: false, user: 'robot', secret: 'smtp-password', from: 'alarms@example.com' },
      { name: 'Signed webhook', type: 'webhook', enabled: true, url: `${hook.url}/signed`, secret: 'hmac-secret' },
      { name: 'WeCom duty group', type: 'wecom', enabled: true, url: `${hook.url}/wecom?key=wecom-key` },
      { name: 'DingTalk duty group', type: 'dingtalk', enabled: true, url: `${hook.url}/ding?access_token=ding-token`, secret: 'SEC-ding-secret' },
      { name: 'Slack #oxygen', type: 'slack', enabled: true, url: `${hook.url}/slack` },
    ];
    const ids: number[] = [];
    for (const channel of channels) ids.push(Number((await rest(url, admin, 'POST /notification-channels', channel) as { id: number }).id));
    const [mail, ...hooks] = ids as [number, ...number[]];
    // The client hears everything; second, the administrator directly above it, hears the escalation by mail.
    const client = await tokenOf(url, 'client', 'Client2026');
    await rest(url, client, 'PUT /notification-preferences', {
      subscriptions: [{ channelId: mail, priorities: ['high', 'medium'], address: 'client@example.com' }, ...hooks.map((channelId) => ({ channelId, priorities: ['high'] }))],
      quietHours: { from: 22 * 60, to: 7 * 60, utcOffset: 0 },
    });
    const second = await tokenOf(url, 'second', 'Second2026');
    await rest(url, second, 'PUT /notification-preferences', { subscriptions: [{ channelId: mail, priorities: ['high'], address: 'second@example.com' }], quietHours: null });

    // Cabin oxygen at 23.6 % held past the rule's on-delay raises a high alarm.
    const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: CHAMBER, password: secret, clientId: CHAMBER, reconnectPeriod: 0 });
    const start = Date.now() - 5000;
    for (let second = 0; second <= 4; second += 1) {
      await chamber.publishAsync(`oc/${CHAMBER}/telemetry`, JSON.stringify({ Time: start + second * 1000, RCPi02: 23.6 }), { qos: 1 });
    }
    await chamber.endAsync();
    await waitFor('the raised notifications', () => smtp.mails.length >= 1 && hook.requests.length >= 4, 30_000);
    // The escalation step: after a minute unacknowledged, to second.
    await waitFor('the escalation', () => smtp.mails.some((received) => received.to.includes('second@example.com')), 120_000);
    const alarms = (await rest(url, admin, `GET /alarms?${new URLSearchParams({ filter: JSON.stringify({ deviceId: CHAMBER }) }).toString()}`)) as { id: number }[];
    const alarmId = alarms[0]?.id;

    const hidden = ['hmac-secret', 'wecom-key', 'ding-token', 'SEC-ding-secret', 'smtp-password', hook.url];
    const mailTo = (address: string): Mail => readMail(masked(smtp.mails.find((received) => received.to.includes(address))?.data ?? '', hidden));
    const raisedMail = mailTo('client@example.com');
    const request = (at: string) => {
      const found = hook.requests.find((received) => received.path === at);
      if (found === undefined) throw new Error(`nothing received at ${at}`);
      return { query: masked(found.query.toString(), hidden), headers: found.headers, body: JSON.stringify(JSON.parse(masked(found.body, hidden)), null, 2) };
    };
    const signed = request('/signed');
    const headers = ['x-oxygen-signature', 'x-oxygen-delivery', 'x-oxygen-timestamp'].map((name) => `${name}: ${String(signed.headers[name])}`);
    const ding = request('/ding');
    writeBlocks({
      mail: fence('', [raisedMail.subject, '', raisedMail.body].join('\n')),
      escalation: fence('', [mailTo('second@example.com').subject, '', mailTo('second@example.com').body].join('\n')),
      webhook: `${fence('', headers.join('\n'))}\n${fence('json', signed.body)}`,
      wecom: fence('json', request('/wecom').body),
      dingtalk: `${fence('', `POST url?${ding.query}`)}\n${fence('json', ding.body)}`,
      slack: fence('json', request('/slack').body),
    });

    const page = await browser.newPage({ viewport: VIEWPORT });
    await signIn(page, url, 'admin', 'Admin2026');
    await page.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en-US')));
    await shoot(page, `${url}/notification-channels`, 'channels.png', async () => {
      await page.getByText('Slack #oxygen').waitFor();
      await page.getByRole('button', { name: 'Send test' }).first().click();
      await page.getByText(/Delivered: 250/).waitFor();
    }, 'list');
    await shoot(page, `${url}/alarms/${alarmId}/show`, 'alarm-deliveries.png', () => page.locator('[data-alarm-deliveries] tbody tr').nth(5).waitFor(), '[data-alarm-deliveries]');

    const clientPage = await browser.newPage({ viewport: VIEWPORT });
    await signIn(clientPage, url, 'client', 'Client2026');
    await clientPage.evaluate(() => localStorage.setItem('RaStore.locale', JSON.stringify('en-US')));
    await shoot(clientPage, `${url}/user/setting?tab=notifications`, 'user-settings.png', () => clientPage.locator('[data-notifications-tab]').waitFor(), '[data-notifications-tab]');

    // The mail as a mail reader shows it: its headers and its plain-text body.
    const mailPage = await browser.newPage({ viewport: { width: 760, height: 400 } });
    const header = raisedMail.headers.map((line) => escape(line)).join('<br>');
    await mailPage.setContent(
      `<body style="font: 14px system-ui, sans-serif; margin: 16px"><div id="mail" style="border: 1px solid #ccc; border-radius: 6px; padding: 12px 16px; max-width: 700px"><div style="color: #555">${header}</div><hr><pre style="font: 14px system-ui, sans-serif; white-space: pre-wrap">${escape(raisedMail.body)}</pre></div></body>`,
    );
    await mailPage.locator('#mail').screenshot({ path: path.join(OUT, 'email.png') });
    process.stdout.write(`notification-shots: written to ${OUT}\n`);
  } finally {
    await browser.close();
    await server.stop();
    await Promise.all([hook.close(), smtp.close()]);
  }
};

const escape = (text: string): string => text.replace(/[&<>]/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[character] ?? character);

interface Mail {
  /** The headers a mail reader shows. */
  headers: string[];
  subject: string;
  body: string;
}

/** A received plain-text mail as its reader shows it: the quoted-printable body decoded. */
const readMail = (data: string): Mail => {
  const split = data.search(/\r?\n\r?\n/);
  const headers = data.slice(0, split).split(/\r?\n/);
  const quoted = data.slice(split).trim().replace(/=\r?\n/g, '');
  const body = Buffer.from(quoted.replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
  return {
    headers: headers.filter((line) => /^(From|To|Subject|Date):/i.test(line)),
    subject: headers.find((line) => line.startsWith('Subject:')) ?? '',
    body: body.replace(/\r\n/g, '\n'),
  };
};

const fence = (language: string, text: string): string => `\`\`\`${language}\n${text}\n\`\`\``;

/** Replaces each `<!-- received:NAME -->` … `<!-- /received -->` block of the doc with what was received. */
const writeBlocks = (blocks: Record<string, string>): void => {
  let doc = readFileSync(DOC, 'utf8');
  for (const [name, text] of Object.entries(blocks)) {
    const start = `<!-- received:${name} -->\n`;
    const from = doc.indexOf(start);
    const to = doc.indexOf('<!-- /received -->', from);
    if (from < 0 || to < 0) throw new Error(`${DOC}: no block ${name}`);
    doc = `${doc.slice(0, from + start.length)}${text}\n${doc.slice(to)}`;
  }
  writeFileSync(DOC, doc);
};

/**
 * Screenshots `selector` on the page at `address` once `ready`, without the app bar (which would cover
 * the element's top once scrolled to); `list`: the content right of the menu and below the alarm banner,
 * to the window's bottom, where the notices show.
 */
const shoot = async (page: Page, address: string, file: string, ready: () => Promise<unknown>, selector: string): Promise<void> => {
  await page.goto(address);
  await ready();
  await page.evaluate(() => document.querySelectorAll('header').forEach((header) => (header.style.visibility = 'hidden')));
  await page.waitForTimeout(300);
  const target = path.join(OUT, file);
  if (selector !== 'list') {
    await page.locator(selector).screenshot({ path: target });
    return;
  }
  const banner = await page.locator('[data-alarm-banner]').boundingBox();
  const top = banner === null ? 48 : banner.y + banner.height;
  const left = banner === null ? 228 : banner.x;
  await page.screenshot({ path: target, clip: { x: left, y: top, width: VIEWPORT.width - left, height: VIEWPORT.height - top } });
};

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
