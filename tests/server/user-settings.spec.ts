import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../server/accounts/service';
import { LIVE_SETTINGS } from '../../server/live/hub';
import { CODES } from '../../src/domain/envelope';
import { MESSAGE_CALLS, MESSAGE_READ, MESSAGE_UNREAD, type MessageListAnswer } from '../../src/domain/messages';
import { USER_SETTING_CALLS as CALLS } from '../../src/domain/userSettings';
import { call, DEMO, envelope, login, type LoginData } from './http';
import { connect, type Received } from './live-client';
import { demoTokens, seedFleet, T0, type DemoName } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/**
 * The user settings (docs/user-settings.md) on both stores, over the test fleet admin → first → second →
 * client, plus other (level 1, under admin) outside first's branch: basic information, open sessions and
 * operators' certificates, each with its validation messages, rights, scope and audit entries, and a waiting
 * certificate's todos in its approvers' message boxes.
 */

const EN = 'en-US';
const ZH = 'zh-CN';
const INFO = { email: 'li.na@example.com', nickname: 'Li Na', countryRegion: 'China', area: 'Hangzhou', address: '', phone: '', profile: '' };
const ready = (received: Received[]) => received.some((message) => message.event === 'ready');

describe.each(STORE_KINDS)('user settings (%s)', (kind) => {
  const store = useStore(kind);
  const recheckMs = LIVE_SETTINGS.recheckMs;
  let now = T0;
  let app: FastifyInstance;
  let tokens: Record<DemoName | 'other', string>;

  beforeEach(async () => {
    // A stream that ends was ended by the revocation, not by the periodic recheck.
    LIVE_SETTINGS.recheckMs = 3_600_000;
    now = T0;
    await store.wipe();
    await seedFleet(store.context());
    app = await store.app({ now: () => now });
    const admin = await app.ctx.db.selectFrom('accounts').select('id').where('account', '=', 'admin').executeTakeFirstOrThrow();
    await createAccount(app.ctx, { account: 'other', password: 'Chamber2026x', level: 1, subId: admin.id });
    const other = envelope<LoginData>(await login(app, 'other', 'Chamber2026x')).data.token ?? '';
    tokens = { ...(await demoTokens(app)), other };
  });
  afterEach(() => {
    LIVE_SETTINGS.recheckMs = recheckMs;
  });

  const as = async (who: keyof typeof tokens, path: string, body: unknown = {}, lang = EN) => {
    const response = await call(app, path, body, { token: tokens[who], lang });
    return { raw: response.body, ...envelope<unknown>(response) };
  };
  const audit = async (action: string) =>
    (await app.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute()).map((row) => ({
      actor: row.actor_account,
      target: row.target_id,
      before: row.before === null ? null : (JSON.parse(row.before) as unknown),
      after: row.after === null ? null : (JSON.parse(row.after) as unknown),
    }));

  describe('basic information', () => {
    it('starts empty, is saved and read back, and every change is audited with what it was', async () => {
      expect((await as('client', CALLS.basicInfo)).data).toEqual({ ...INFO, email: '', nickname: '', countryRegion: '', area: '' });
      const saved = await as('client', CALLS.saveInfo, { ...INFO, phone: '+86 138-0000-0000', profile: '  负责二号舱的日常操作。 ' });
      expect(saved, saved.raw).toMatchObject({ code: CODES.ok, data: 'ok' });
      const stored = { ...INFO, phone: '+86 138-0000-0000', profile: '  负责二号舱的日常操作。 ' };
      expect((await as('client', CALLS.basicInfo)).data).toEqual(stored);
      // Each account reads its own.
      expect((await as('second', CALLS.basicInfo)).data).toMatchObject({ email: '' });
      await as('client', CALLS.saveInfo, { ...stored, area: 'Ningbo' });
      // Saving what is stored writes nothing.
      await as('client', CALLS.saveInfo, { ...stored, area: 'Ningbo' });
      expect(await audit('account.saveInfo')).toEqual([
        { actor: 'client', target: 'client', before: { ...INFO, email: '', nickname: '', countryRegion: '', area: '' }, after: stored },
        { actor: 'client', target: 'client', before: stored, after: { ...stored, area: 'Ningbo' } },
      ]);
    });

    it('refuses bad input naming the field, in the caller\'s language, and stores nothing', async () => {
      const refused = async (body: unknown, lang = EN) => {
        const answer = await as('client', CALLS.saveInfo, body, lang);
        expect(answer.code, answer.raw).toBe(CODES.badInput);
        return answer.msg;
      };
      expect(await refused({ ...INFO, email: '  ' })).toBe('email cannot be empty');
      expect(await refused({ ...INFO, email: ' ' }, ZH)).toBe('email 不能为空');
      expect(await refused({ ...INFO, email: 'li.na-at-example.com' })).toBe('email is invalid');
      const { nickname: _nickname, ...withoutNickname } = INFO;
      expect(await refused(withoutNickname)).toBe('nickname cannot be empty');
      expect(await refused({ ...INFO, countryRegion: '' })).toBe('countryRegion cannot be empty');
      expect(await refused({ ...INFO, area: '' }, ZH)).toBe('area 不能为空');
      expect(await refused({ ...INFO, phone: 'call me' })).toBe('phone is invalid');
      // 201 Chinese characters are one too many; 200 (and 200 emoji, one each) are allowed.
      expect(await refused({ ...INFO, profile: '氧'.repeat(201) })).toBe('profile must be at most 200 characters');
      expect(await refused({ ...INFO, profile: '氧'.repeat(201) }, ZH)).toBe('profile 最多 200 个字符');
      expect(await refused({ ...INFO, avatar: 'x' })).toBe('unknown field: avatar');
      expect(await audit('account.saveInfo')).toEqual([]);
      expect((await as('client', CALLS.saveInfo, { ...INFO, profile: '🫁'.repeat(200) })).code).toBe(CODES.ok);
      expect((await as('client', CALLS.saveInfo, { ...INFO, profile: '氧'.repeat(200) })).code).toBe(CODES.ok);
    });

    it('needs a session', async () => {
      expect(envelope(await call(app, CALLS.saveInfo, INFO)).code).toBe(CODES.notSignedIn);
      expect(envelope(await call(app, CALLS.basicInfo, {})).code).toBe(CODES.notSignedIn);
    });
  });

  describe('open sessions', () => {
    const signIn = async (address: string, agent: string) => {
      const response = await call(app, '/login', DEMO.client, { address, headers: { 'user-agent': agent } });
      return envelope<LoginData>(response).data.token ?? '';
    };

    it('lists the account\'s own live sessions with where and when each started and was last used, the current one marked', async () => {
      now = T0 + 60_000;
      const laptop = await signIn('10.0.0.7', 'Mozilla/5.0 (X11; Linux x86_64) Chromium/130');
      now = T0 + 120_000;
      const listed = await call(app, CALLS.sessions, {}, { token: laptop });
      const sessions = envelope<{ session: string; startedAt: string; address: string; agent: string; lastUsedAt: string; current: boolean }[]>(listed).data;
      // The demo tokens' session (T0) and the laptop's (T0 + 1 min); another account's never shows.
      expect(sessions).toHaveLength(2);
      expect(sessions.find((session) => session.current)).toMatchObject({
        address: '10.0.0.7',
        agent: 'Mozilla/5.0 (X11; Linux x86_64) Chromium/130',
        startedAt: new Date(T0 + 60_000).toISOString(),
      });
      expect(sessions.find((session) => !session.current)).toMatchObject({ startedAt: new Date(T0).toISOString(), lastUsedAt: new Date(T0).toISOString() });
      expect(sessions.every((session) => /^[0-9a-f]{16}$/.test(session.session))).toBe(true);
      expect(JSON.stringify(sessions)).not.toContain(laptop);
    });

    it('revokes one: its calls and its live streams end at once, the others go on, and it is audited', async () => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const laptop = await signIn('10.0.0.7', 'Laptop');
      const laptopStream = await connect(base, laptop);
      const keptStream = await connect(base, tokens.client);
      await laptopStream.until(ready);
      await keptStream.until(ready);
      const sessions = envelope<{ session: string; agent: string }[]>(await call(app, CALLS.sessions, {}, { token: tokens.client })).data;
      const target = sessions.find((session) => session.agent === 'Laptop')?.session ?? '';
      // Another account cannot end it: the name reads like one that does not exist.
      expect((await as('second', CALLS.revokeSession, { session: target })).code).toBe(CODES.notFound);
      expect((await as('client', CALLS.revokeSession, { session: '0123456789abcdef' })).code).toBe(CODES.notFound);
      expect((await as('client', CALLS.revokeSession, { session: 'not-a-session' })).msg).toBe('session is invalid');
      const revoked = await as('client', CALLS.revokeSession, { session: target });
      expect(revoked, revoked.raw).toMatchObject({ code: CODES.ok });
      await laptopStream.ended;
      expect(envelope(await call(app, '/api/user/info', {}, { token: laptop })).code).toBe(CODES.notSignedIn);
      expect((await as('client', '/api/user/info')).code).toBe(CODES.ok);
      app.ctx.live.publish({ type: 'device', data: { Id: 'OC-A1', Online: false } });
      await keptStream.until((received) => received.some((message) => message.event === 'device'));
      expect(await audit('auth.revokeSession')).toEqual([
        { actor: 'client', target: 'client', before: { session: target, startedAt: new Date(T0).toISOString(), address: '10.0.0.7', current: false }, after: null },
      ]);
      expect((await as('client', CALLS.sessions)).data).toHaveLength(1);
    });
  });

  describe('certification', () => {
    const submit = (who: keyof typeof tokens, body: unknown, lang = EN) => as(who, CALLS.submitCertificate, body, lang);
    const CERT = { number: 'HBO-2026-0042', issuer: 'Zhejiang Hyperbaric Society', expiresOn: '2027-06-30' };

    it('is submitted, waits, and is passed by an administrator above, who is named with the time', async () => {
      expect((await as('client', CALLS.certification)).data).toEqual({ enterpriseInfo: null, record: [] });
      const submitted = await submit('client', CERT);
      expect(submitted, submitted.raw).toMatchObject({
        code: CODES.ok,
        data: { enterpriseInfo: { status: 0, authenticationNumber: CERT.number, enterpriseName: CERT.issuer, expiresOn: CERT.expiresOn, legalPerson: 'client', approver: null } },
      });
      // Every administrator above sees it waiting; none beside or below, and not the holder.
      for (const who of ['second', 'first', 'admin'] as const) {
        expect((await as(who, CALLS.pendingCertificates)).data, who).toEqual([
          { account: 'client', level: 3, number: CERT.number, issuer: CERT.issuer, expiresOn: CERT.expiresOn, submittedAt: new Date(T0).toISOString() },
        ]);
      }
      expect((await as('other', CALLS.pendingCertificates)).data).toEqual([]);
      expect((await as('client', CALLS.pendingCertificates)).code).toBe(CODES.forbidden);
      expect((await as('client', CALLS.decideCertificate, { account: 'client', pass: true })).code).toBe(CODES.forbidden);
      expect((await as('other', CALLS.decideCertificate, { account: 'client', pass: true })).code).toBe(CODES.notFound);
      expect(await audit('account.decideCertificate')).toEqual([]);

      now = T0 + 600_000;
      expect((await as('second', CALLS.decideCertificate, { account: 'client', pass: true })).code).toBe(CODES.ok);
      expect((await as('client', CALLS.certification)).data).toMatchObject({
        enterpriseInfo: { status: 1, approver: 'second', decidedAt: new Date(T0 + 600_000).toISOString() },
        record: [{ certificationType: 1, status: 1, certificationContent: `${CERT.number} · ${CERT.issuer} · ${CERT.expiresOn}` }],
      });
      expect((await as('first', CALLS.pendingCertificates)).data).toEqual([]);
      const again = await as('first', CALLS.decideCertificate, { account: 'client', pass: false }, ZH);
      expect(again.msg).toBe('账号 client 没有待审核的证书（account）');
      const audited = { number: CERT.number, issuer: CERT.issuer, expiresOn: CERT.expiresOn };
      expect(await audit('account.submitCertificate')).toEqual([{ actor: 'client', target: 'client', before: null, after: { ...audited, status: 'auditing' } }]);
      expect(await audit('account.decideCertificate')).toEqual([
        { actor: 'second', target: 'client', before: { ...audited, status: 'auditing' }, after: { ...audited, status: 'pass' } },
      ]);
    });

    it('is refused by an administrator above; a new submission replaces one still waiting', async () => {
      await submit('second', CERT);
      await submit('second', { ...CERT, number: 'HBO-2026-0043' });
      expect((await as('second', CALLS.certification)).data).toMatchObject({ record: [{ status: 0, certificationContent: expect.stringContaining('0043') as unknown }] });
      expect((await as('second', CALLS.pendingCertificates)).data).toEqual([]);
      expect((await as('first', CALLS.decideCertificate, { account: 'second', pass: false })).code).toBe(CODES.ok);
      expect((await as('second', CALLS.certification)).data).toMatchObject({ enterpriseInfo: { status: 2, approver: 'first' } });
      expect((await audit('account.submitCertificate'))[1]).toMatchObject({ before: { number: CERT.number, status: 'auditing' }, after: { number: 'HBO-2026-0043' } });
    });

    const todos = async (who: keyof typeof tokens, lang = EN) => {
      const { list } = (await as(who, MESSAGE_CALLS.list, { filter: { type: 'todo' } }, lang)).data as MessageListAnswer;
      return list.filter((message) => message.messageType === 'certificateAwaiting').map(({ title, subTitle, content, status }) => ({ title, subTitle, content, status }));
    };
    const awaiting = (account: string, number: string, status: number) => ({
      title: `To approve: operator certificate of ${account}`,
      subTitle: account,
      content: `Certificate No. ${number}, issued by ${CERT.issuer}, valid through ${CERT.expiresOn}. Done by itself once it is passed or refused.`,
      status,
    });

    it('waits as a todo of each administrator who may decide it, and of no one else, until it is passed', async () => {
      await submit('client', CERT);
      for (const who of ['second', 'first', 'admin'] as const) expect(await todos(who), who).toEqual([awaiting('client', CERT.number, MESSAGE_UNREAD)]);
      expect(await todos('second', ZH)).toEqual([
        {
          title: '待审核：client 的操作员证书',
          subTitle: 'client',
          content: `证书编号 ${CERT.number}，发证机构 ${CERT.issuer}，有效期至 ${CERT.expiresOn}。通过或驳回后，此待办自动完成。`,
          status: MESSAGE_UNREAD,
        },
      ]);
      // Beside the holder's branch, and the holder itself: nothing.
      for (const who of ['other', 'client'] as const) expect(await todos(who), who).toEqual([]);
      expect((await as('second', CALLS.decideCertificate, { account: 'client', pass: true })).code).toBe(CODES.ok);
      // Whoever decided, every approver's todo is done.
      for (const who of ['second', 'first', 'admin'] as const) expect(await todos(who), who).toEqual([awaiting('client', CERT.number, MESSAGE_READ)]);
    });

    it('waits as a todo until it is refused; a new submission replaces the todo with its own', async () => {
      await submit('second', CERT);
      for (const who of ['first', 'admin'] as const) expect(await todos(who), who).toEqual([awaiting('second', CERT.number, MESSAGE_UNREAD)]);
      // The level above only: the holder and those below it decide nothing of it.
      for (const who of ['second', 'client', 'other'] as const) expect(await todos(who), who).toEqual([]);
      await submit('second', { ...CERT, number: 'HBO-2026-0043' });
      for (const who of ['first', 'admin'] as const) expect(await todos(who), who).toEqual([awaiting('second', 'HBO-2026-0043', MESSAGE_UNREAD)]);
      expect((await as('admin', CALLS.decideCertificate, { account: 'second', pass: false })).code).toBe(CODES.ok);
      for (const who of ['first', 'admin'] as const) expect(await todos(who), who).toEqual([awaiting('second', 'HBO-2026-0043', MESSAGE_READ)]);
    });

    it('refuses bad certificates naming the field', async () => {
      expect((await submit('client', { ...CERT, number: '' })).msg).toBe('number cannot be empty');
      expect((await submit('client', { ...CERT, issuer: ' ' }, ZH)).msg).toBe('issuer 不能为空');
      expect((await submit('client', { ...CERT, expiresOn: '2027-02-30' })).msg).toBe('expiresOn is invalid');
      expect((await submit('client', { ...CERT, expiresOn: '2025-12-31' })).msg).toBe('the certificate has expired (expiresOn)');
      expect((await submit('client', { ...CERT, expiresOn: '2025-12-31' }, ZH)).msg).toBe('证书已过期（expiresOn）');
      expect(await audit('account.submitCertificate')).toEqual([]);
    });
  });
});
