import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import mqtt from 'mqtt';
import type { Download, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, type ExpectStatic } from 'vitest';
import type { Role } from '../../src/domain/roles';
import { tokenOf } from './chambers';
import { fillSignIn, freePort, postTo, serverAndBrowserForThisFile } from './harness';
import { DEMO_ACCOUNTS, goWithin, routesOf, settled } from './walk';

/**
 * Hostile text through every screen and every export (docs/security.md, "Hostile input"). Devices, accounts,
 * an alarm's acknowledgement comment, a booking and failed sign-ins are given script, markup, template,
 * interpolation and formula payloads through the real server's APIs; the super administrator walks every
 * route, the pages and dialogs those strings show on, and exports every list; a client of the hostile
 * administrator walks its own screens, its message box and user info. Every payload would set
 * `window.__pwned` if it ran. At each step: the canary is unset, no element a payload would inject exists
 * (the page's CSP could block a script, but not the creation of an <img>: the DOM itself is checked), and
 * the payload shows as text. Every CSV: no cell a spreadsheet would run, the payloads there as text.
 */

let mqttPort = 0;
const e2e = serverAndBrowserForThisFile(async () => {
  mqttPort = await freePort();
  return { MQTT_PORT: String(mqttPort) };
});

const P = {
  img: '<img src=x onerror="window.__pwned=1">',
  svg: '<svg onload="window.__pwned=1">',
  script: '"><script>window.__pwned=1</script>',
  js: 'javascript:window.__pwned=1',
  template: "{{constructor.constructor('window.__pwned=1')()}}",
  formula: '=HYPERLINK("http://x","y")',
  // react-admin's translations are Polyglot: a name used as a phrase would interpolate or split on `||||`.
  interpolation: '%{smart_count} |||| ${window.__pwned=1} #{x} %s',
  at: "@SUM(1+1)*cmd|' /C calc'!A0",
  minus: "-2+3+cmd|' /C calc'!A0",
  plus: '+1+HYPERLINK("http://x","y")',
} as const;

/** Devices whose name and location carry the payloads. */
const DEVICES = [
  { Id: 'HX-1', name: P.img, Location: P.svg },
  { Id: 'HX-2', name: P.script, Location: P.js },
  { Id: 'HX-3', name: P.template, Location: P.interpolation },
  { Id: 'HX-4', name: P.formula, Location: P.at },
  { Id: 'HX-5', name: P.minus, Location: P.plus },
] as const;
const DEVICE_IDS = DEVICES.map(({ Id }) => Id);

/** A first-level administrator named by a payload, who books, acknowledges and assigns; and its client. */
const HOSTILE_ADMIN = P.img;
const HOSTILE_CLIENT = P.template;
/** Accounts the super administrator makes, one per remaining payload (the account name rule is 1–64 characters, anything). */
const OTHER_ACCOUNTS = [P.svg, P.script, P.js, P.formula, P.interpolation, P.at, P.minus, P.plus];
/** Failed sign-ins under these names land in the audit trail. */
const FAILED_SIGN_INS = [P.formula, P.script, P.minus];
/** The acknowledgement's comment: every payload at once (500 characters allowed). */
const COMMENT = [P.img, P.svg, P.script, P.template, P.interpolation, P.formula].join(' ');

/** A password the rule accepts (length, cases, digits) and no list holds: random. */
const strongPassword = () => `Hx7${randomBytes(12).toString('hex')}Qz`;
const passwords = new Map<string, string>();

const rest = async <T>(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const response = await fetch(`${e2e.server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Accept-Language': 'en-US', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
};

const seeded = { orderId: 0, alarmId: 0, registerEntryId: 0, refusedEntryId: 0 };

/** Registers the devices, the accounts, the booking and its session over MQTT, the acknowledgement, the failed sign-ins. */
const seed = async () => {
  const admin = await tokenOf(e2e.server.url, 'admin', 'Admin2026');
  const secrets = new Map<string, string>();
  for (const device of DEVICES) {
    const { secret } = await postTo<{ secret: string }>(e2e.server.url, '/api/v1/devices', { ...device, Type: 1 }, admin);
    secrets.set(device.Id, secret);
  }

  passwords.set(HOSTILE_ADMIN, strongPassword());
  await postTo(e2e.server.url, '/upstream/add_Admin', { Account: HOSTILE_ADMIN, Code: passwords.get(HOSTILE_ADMIN), Level: 1, DeviceIds: DEVICE_IDS }, admin);
  for (const Account of OTHER_ACCOUNTS) await postTo(e2e.server.url, '/upstream/add_Admin', { Account, Code: strongPassword(), Level: 3 }, admin);

  // The hostile administrator's own fields: its client, given the devices (a message naming who gave them), a booking.
  const hostile = await tokenOf(e2e.server.url, HOSTILE_ADMIN, passwords.get(HOSTILE_ADMIN) ?? '');
  passwords.set(HOSTILE_CLIENT, strongPassword());
  await postTo(e2e.server.url, '/upstream/add_Admin', { Account: HOSTILE_CLIENT, Code: passwords.get(HOSTILE_CLIENT), Level: 3 }, hostile);
  await postTo(e2e.server.url, '/upstream/assign_Devices', { Account: HOSTILE_CLIENT, DeviceIds: DEVICE_IDS }, hostile);

  // A booking's free text is allow-listed: OpenId and OC refuse markup, naming the field.
  const SetT = Date.now() + 60_000;
  const badGuest = await rest<{ message: string }>('POST', '/api/v1/orders', hostile, { Id: 'HX-1', SetT, OpenId: P.img, OC: '135790' });
  expect(badGuest.status).toBe(400);
  expect(badGuest.body.message).toContain('OpenId');
  const badCode = await rest<{ message: string }>('POST', '/api/v1/orders', hostile, { Id: 'HX-1', SetT, OpenId: 'oHostileGuest1', OC: P.script });
  expect(badCode.status).toBe(400);
  expect(badCode.body.message).toContain('OC');
  const booked = await rest<{ id: number }>('POST', '/api/v1/orders', hostile, { Id: 'HX-1', SetT, OpenId: 'oHostileGuest1', OC: '135790' });
  expect(booked.status).toBe(201);
  seeded.orderId = booked.body.id;

  // The session over MQTT: cabin oxygen at 23.8 % past the on-delay raises a high alarm.
  const chamber = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: 'HX-1', password: secrets.get('HX-1'), clientId: 'HX-1', reconnectPeriod: 0 });
  const start = Date.now();
  try {
    await chamber.publishAsync('oc/HX-1/event', JSON.stringify({ type: 'sessionStart', Time: start, OC: '135790' }), { qos: 1 });
    for (let second = 1; second <= 4; second += 1) {
      await chamber.publishAsync('oc/HX-1/telemetry', JSON.stringify({ Time: start + second * 1000, SP: 1.3, RCP: 1.3, RCPi02: 23.8, RCT: 24 }), { qos: 1 });
    }
    await chamber.publishAsync('oc/HX-1/event', JSON.stringify({ type: 'sessionEnd', Time: start + 5000 }), { qos: 1 });
  } finally {
    await chamber.endAsync();
  }
  const query = new URLSearchParams({ filter: JSON.stringify({ deviceId: 'HX-1' }) });
  // The alarm is raised as the readings are evaluated, after their storage was acknowledged: wait for it.
  for (let tries = 0; seeded.alarmId === 0; tries += 1) {
    expect(tries, 'the alarm of HX-1 raised').toBeLessThan(75);
    if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    seeded.alarmId = (await rest<{ id: number }[]>('GET', `/api/v1/alarms?${query.toString()}`, admin)).body[0]?.id ?? 0;
  }
  expect((await rest('POST', `/api/v1/alarms/${String(seeded.alarmId)}/ack`, hostile, { comment: COMMENT })).status).toBe(200);

  for (const Account of FAILED_SIGN_INS) {
    const response = await fetch(`${e2e.server.url}/upstream/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ Account, Code: 'Wrong-password-1' }) });
    expect(((await response.json()) as { data: { State: boolean } }).data.State).toBe(false);
  }
  const entryOf = async (filter: Record<string, string>) =>
    (await rest<{ id: number }[]>('GET', `/api/v1/audit-log?${new URLSearchParams({ filter: JSON.stringify(filter) }).toString()}`, admin)).body[0]?.id ?? 0;
  seeded.registerEntryId = await entryOf({ action: 'device.register', targetId: 'HX-3' });
  seeded.refusedEntryId = await entryOf({ action: 'auth.signInRefused', actor: P.formula });
  expect(seeded.registerEntryId).toBeGreaterThan(0);
  expect(seeded.refusedEntryId).toBeGreaterThan(0);
};

/** The canary unset, and nothing a payload would have made in the DOM. */
const assertUnharmed = async (page: Page, where: string) => {
  const found = await page.evaluate(() => ({
    canary: (window as unknown as { __pwned?: unknown }).__pwned,
    img: document.querySelectorAll('img[src="x"]').length,
    svg: document.querySelectorAll('svg[onload]').length,
    script: [...document.querySelectorAll('script')].filter((script) => script.textContent.includes('__pwned')).length,
    handlers: [...document.querySelectorAll('*')].filter((element) => [...element.attributes].some((attribute) => attribute.name.startsWith('on'))).length,
    links: [...document.querySelectorAll('a[href], [src], [action]')].filter((element) => /^\s*javascript:/i.test(element.getAttribute('href') ?? element.getAttribute('src') ?? element.getAttribute('action') ?? '')).length,
  }));
  expect(found, where).toEqual({ canary: undefined, img: 0, svg: 0, script: 0, handlers: 0, links: 0 });
};

/**
 * Each text shown, exactly, somewhere on the page (not dropped, not rewritten). A wait rather than expect.poll:
 * the two walks run side by side, and a wait needs no test context.
 */
const assertShown = async (page: Page, where: string, texts: readonly string[]) => {
  for (const text of texts) {
    const shown = await page
      .waitForFunction((wanted) => document.body.innerText.includes(wanted), text, { timeout: 10_000 })
      .then(() => true, () => false);
    if (!shown) {
      // What the page shows instead, to tell a list still on its previous rows from one without the record.
      const instead = await page.evaluate(() => {
        const rows = [...document.querySelectorAll('tbody tr')];
        const text = (document.querySelector<HTMLElement>('#main-content') ?? document.body).innerText.replace(/\s+/g, ' ').slice(0, 600);
        return `${window.location.href}: ${text} (${rows.length} rows, ${rows.filter((row) => row.children.length === 0).length} of them without cells)`;
      });
      throw new Error(`${where}: "${text}" is not shown; the page shows ${instead}`);
    }
  }
};

/** RFC 4180 cells, quoted ones with commas, quotes and line breaks in them. */
const parseCsv = (text: string): string[][] => {
  const rows: string[][] = [[]];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    rows.at(-1)?.push(cell);
    cell = '';
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charAt(index);
    const next = text.charAt(index + 1);
    if (quoted && char === '"' && next === '"') {
      cell += '"';
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      endCell();
    } else if (!quoted && char === '\r' && next === '\n') {
      endCell();
      rows.push([]);
      index += 1;
    } else {
      cell += char;
    }
  }
  endCell();
  return rows;
};

const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;
const FORMULA_START = /^[=+\-@\t\r]/;
/** How a payload reads in a CSV: with the apostrophe when a spreadsheet would run it. */
const asCell = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** A downloaded CSV: no cell a spreadsheet would run, and each payload expected there as a cell of its own. */
const checkCsv = async (download: Download, where: string, expected: readonly string[]) => {
  const cells = parseCsv(readFileSync((await download.path()) ?? '', 'utf8')).flat();
  expect(cells.length, where).toBeGreaterThan(1);
  expect(cells.filter((cell) => FORMULA_START.test(cell) && !NUMBER.test(cell)), where).toEqual([]);
  for (const text of expected) expect(cells, `${where}: ${text}`).toContain(asCell(text));
  return download.suggestedFilename();
};

/** Clicks `button` and answers the file it downloads. */
const downloadBy = async (page: Page, name: string, where: string) => {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 15_000 }).catch(() => {
      throw new Error(`${where}: "${name}" downloaded nothing`);
    }),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  return download;
};

const signedIn = async (account: string, password: string) => {
  const page = await e2e.browser.newPage({ viewport: { width: 1600, height: 1000 }, acceptDownloads: true });
  await page.goto(`${e2e.server.url}/login`);
  await fillSignIn(page, account, password);
  await page.waitForURL('**/dashboard/workplace');
  await settled(page);
  return page;
};

const DEVICE_TEXTS = DEVICES.flatMap(({ name, Location }) => [name, Location]);
const DEVICE_NAMES = DEVICES.map(({ name }) => name);

/**
 * What each route must show (on a page long enough to hold the new records) and what its CSV must hold,
 * for a role that sees the hostile devices.
 */
const EXPECTED: Partial<Record<string, { shown: readonly string[]; csv?: readonly string[]; role?: Role }>> = {
  '/list/oxygen-monitor': { shown: DEVICE_NAMES },
  '/list/device-atts': { shown: DEVICE_NAMES, csv: DEVICE_NAMES },
  // A reading names its chamber by Id, the value itself (docs/console.md): no device text to render there.
  '/list/readings': { shown: ['HX-1'] },
  '/list/device-manager': { shown: DEVICE_NAMES, csv: DEVICE_TEXTS },
  '/other/manager': { shown: [HOSTILE_ADMIN, HOSTILE_CLIENT, ...OTHER_ACCOUNTS], csv: [HOSTILE_ADMIN, HOSTILE_CLIENT, ...OTHER_ACCOUNTS] },
  // The super administrator reads every entry; a client its own.
  '/audit-log': { shown: FAILED_SIGN_INS, csv: [...FAILED_SIGN_INS, HOSTILE_ADMIN], role: 'admin' },
  '/alarms': { shown: [HOSTILE_ADMIN], csv: [HOSTILE_ADMIN, COMMENT] },
};
/** The routes of each walking role that show a generated list, each with its CSV export. */
const EXPORTS: Record<'admin' | 'client', readonly string[]> = {
  admin: ['/list/device-atts', '/list/readings', '/list/device-manager', '/other/order-manager', '/other/order-list', '/other/manager', '/alarms', '/alarm-rules', '/device-types', '/audit-log'],
  client: ['/list/readings', '/list/device-manager', '/other/order-manager', '/other/order-list', '/alarms', '/alarm-rules', '/audit-log'],
};

/** Walks every route of `role`: unharmed everywhere, the payloads shown, every list exported and its CSV checked. */
const walkRoutes = async (page: Page, role: 'admin' | 'client', check: ExpectStatic) => {
  const exported: string[] = [];
  const routes = await routesOf(page, role);
  check(routes.length).toBeGreaterThan(3);
  const mustExport = EXPORTS[role];
  for (const path of routes) {
    const listed = EXPECTED[path];
    const expected = listed && (listed.role ?? role) === role ? listed : undefined;
    await goWithin(page, expected ? `${path}?perPage=100` : path);
    await assertUnharmed(page, path);
    if (expected) await assertShown(page, path, expected.shown);
    if (mustExport.includes(path)) {
      await page.getByRole('button', { name: '导出', exact: true }).and(page.locator(':enabled')).waitFor();
      await checkCsv(await downloadBy(page, '导出', path), path, expected?.csv ?? []);
      await assertUnharmed(page, `${path} export`);
      exported.push(path);
    }
  }
  check(exported.sort()).toEqual([...mustExport].sort());
};

describe('hostile input through every screen and export in Chromium against the real server', () => {
  beforeAll(seed, 60_000);

  it.concurrent('the super administrator: every route and export, a hostile device, the report, the alarm, the audit entries, the account dialogs', async ({ expect: check }) => {
    const page = await signedIn(DEMO_ACCOUNTS.admin.account, DEMO_ACCOUNTS.admin.password);
    await walkRoutes(page, 'admin', check);

    for (const { Id, name, Location } of DEVICES) {
      await goWithin(page, `/devices/${Id}/show`);
      await assertUnharmed(page, `device ${Id}`);
      await assertShown(page, `device ${Id}`, [name, Location]);
    }
    // HX-1's tabs (its alarms, commands, orders, audit entries) and its history as CSV.
    await goWithin(page, '/devices/HX-1/show');
    const tabs = page.locator('[id^="device-tab-"]');
    check(await tabs.count()).toBeGreaterThan(1);
    for (const tab of await tabs.all()) {
      await tab.click();
      await settled(page);
      await assertUnharmed(page, `device HX-1, tab ${(await tab.getAttribute('id')) ?? ''}`);
    }
    await page.getByRole('button', { name: '1 小时', exact: true }).click();
    await checkCsv(await downloadBy(page, '导出本时段 CSV', 'device history'), 'device history', []);

    await goWithin(page, `/orders/${String(seeded.orderId)}/show`);
    await page.getByTestId('session-report').waitFor();
    await assertUnharmed(page, 'session report');
    await assertShown(page, 'session report', [`HX-1 ${P.img} · ${P.svg}`, 'oHostileGuest1']);
    await checkCsv(await downloadBy(page, '导出读数 CSV', 'report readings'), 'report readings', []);
    await checkCsv(await downloadBy(page, '导出报警 CSV', 'report alarms'), 'report alarms', [HOSTILE_ADMIN]);

    await goWithin(page, `/alarms/${String(seeded.alarmId)}/show`);
    await assertUnharmed(page, 'alarm');
    await assertShown(page, 'alarm', [COMMENT, HOSTILE_ADMIN]);

    for (const [id, texts] of [[seeded.registerEntryId, [P.template, P.interpolation]], [seeded.refusedEntryId, [P.formula]]] as const) {
      await goWithin(page, `/audit-log/${String(id)}/show`);
      await assertUnharmed(page, `audit entry ${String(id)}`);
      await assertShown(page, `audit entry ${String(id)}`, texts);
    }

    // The dialogs that name an account: assigning devices, resetting the password (cancelled).
    await goWithin(page, '/other/manager?perPage=100');
    const row = page.locator('tbody tr', { has: page.locator('td.column-Account', { hasText: HOSTILE_ADMIN }) });
    await row.getByRole('button', { name: '分配设备' }).click();
    const assign = page.getByRole('dialog');
    await assign.getByRole('combobox').click();
    await page.getByRole('option').first().waitFor();
    await assertUnharmed(page, 'assign devices dialog');
    await assertShown(page, 'assign devices dialog', [HOSTILE_ADMIN, P.img]);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await assign.waitFor({ state: 'detached' });
    await row.getByRole('button', { name: '重置密码' }).click();
    await page.getByRole('dialog').waitFor();
    await assertUnharmed(page, 'reset password dialog');
    await assertShown(page, 'reset password dialog', [HOSTILE_ADMIN]);
    await page.getByRole('dialog').getByRole('button', { name: '取消' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await assertUnharmed(page, 'the end of the walk');

    // The watch itself: markup slipped into the page is seen, though the CSP keeps its handler from running.
    await page.evaluate((html) => {
      const probe = document.createElement('div');
      probe.innerHTML = html;
      document.body.append(probe);
    }, P.img);
    await check(assertUnharmed(page, 'a probe')).rejects.toThrow(/img: 1/);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await page.close();
  });

  it.concurrent('a client named by a payload, under a hostile administrator: its screens, its message box, its user info', async ({ expect: check }) => {
    const page = await signedIn(HOSTILE_CLIENT, passwords.get(HOSTILE_CLIENT) ?? '');
    await assertUnharmed(page, 'signed in');
    await assertShown(page, 'app bar', [HOSTILE_CLIENT]);
    await walkRoutes(page, 'client', check);

    await goWithin(page, '/user/info');
    await assertShown(page, 'user info', [HOSTILE_CLIENT, HOSTILE_ADMIN]);
    await page.locator('[data-message-box]').click();
    const panel = page.locator('[data-message-box-panel]');
    await panel.locator('[data-message-id]').first().waitFor();
    await assertUnharmed(page, 'message box');
    await assertShown(page, 'message box', [HOSTILE_ADMIN]);
    await page.keyboard.press('Escape');

    await goWithin(page, `/alarms/${String(seeded.alarmId)}/show`);
    await assertUnharmed(page, 'alarm, as the client');
    await assertShown(page, 'alarm, as the client', [COMMENT]);
    await page.close();
  });
});
