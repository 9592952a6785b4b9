import { http } from 'msw';
import { CODES } from '../src/domain/envelope';
import { levelToRole } from '../src/domain/roles';
import { isStrictlyBelow } from '../src/domain/scope/mayManage';
import {
  basicInfoSchema,
  certificateBodySchema,
  certificateDecisionSchema,
  certificateExpired,
  EMPTY_BASIC_INFO,
  revokeSessionBodySchema,
  USER_SETTING_CALLS,
  WIRE_STATUS,
  type BasicInfo,
  type CertificateStatus,
  type CertificationAnswer,
  type OpenSession,
  type PendingCertificate,
} from '../src/domain/userSettings';
import { badInputMessage, readJson, type AccessCheck } from './access';
import { endSession, mockAccountOf, mockTokenOf, sessionEntries } from './auth';
import { fail, ok } from './envelope';
import type { MockBoxes, MockMessage } from './messages';
import type { MockScope } from './scope';
import { upstreamRefusal } from './upstream';

/**
 * The user settings' calls (docs/user-settings.md) as the server answers them, over what the mocks' state
 * holds: each account's basic information and certificates (a waiting one a todo in its
 * approvers' boxes, as the server makes it), and the sign-in sessions of mocks/auth.ts. `/api/user/upload`, the old console's avatar upload, answers 'ok' as its mock did.
 */

export interface MockCertificate {
  /** Numbered across every account, as the server's rows are: what its approvers' todos are about. */
  id: number;
  number: string;
  issuer: string;
  expiresOn: string;
  status: CertificateStatus;
  submittedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** What a certificate's todos are about (MockMessage's `about`). */
const aboutOf = (certificate: Pick<MockCertificate, 'id'>): string => `certificate:${String(certificate.id)}`;

/** A waiting certificate's todo as the server renders it (server/messages/kinds.ts), in both languages. */
const certificateTodo = (holder: string, { number, issuer, expiresOn, submittedAt, id }: MockCertificate): Omit<MockMessage, 'id' | 'status'> => ({
  type: 'todo',
  avatar: '',
  time: submittedAt,
  messageType: 'certificateAwaiting',
  about: aboutOf({ id }),
  texts: {
    'zh-CN': { title: `待审核：${holder} 的操作员证书`, subTitle: holder, content: `证书编号 ${number}，发证机构 ${issuer}，有效期至 ${expiresOn}。通过或驳回后，此待办自动完成。` },
    'en-US': {
      title: `To approve: operator certificate of ${holder}`,
      subTitle: holder,
      content: `Certificate No. ${number}, issued by ${issuer}, valid through ${expiresOn}. Done by itself once it is passed or refused.`,
    },
  },
});

/** A session's name for revoking (16 hex digits, FNV-1a twice), never the token itself. */
const sessionName = (token: string): string =>
  [0x811c9dc5, 0x050c5d1f]
    .map((seed) => {
      let hash = seed;
      for (const character of token) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 0x01000193) >>> 0;
      return hash.toString(16).padStart(8, '0');
    })
    .join('');

const answerOf = (account: string, certificates: readonly MockCertificate[]): CertificationAnswer => {
  const [latest] = certificates;
  return {
    enterpriseInfo:
      latest === undefined
        ? null
        : {
            accountType: 'operator',
            status: WIRE_STATUS[latest.status],
            time: iso(latest.submittedAt),
            legalPerson: account,
            certificateType: 'operator',
            authenticationNumber: latest.number,
            enterpriseName: latest.issuer,
            expiresOn: latest.expiresOn,
            approver: latest.decidedBy,
            decidedAt: latest.decidedAt === null ? null : iso(latest.decidedAt),
          },
    record: certificates.map((certificate) => ({
      certificationType: 1,
      certificationContent: `${certificate.number} · ${certificate.issuer} · ${certificate.expiresOn}`,
      status: WIRE_STATUS[certificate.status],
      time: iso(certificate.submittedAt),
    })),
  };
};

/** What the user settings' calls keep per account: part of the mocks' state, kept across a reload in the browser (mocks/persist.ts). */
export interface MockUserSettings {
  profiles: Map<string, BasicInfo>;
  /** Each account's certificates, newest first. */
  certificates: Map<string, MockCertificate[]>;
}

export const noUserSettings = (): MockUserSettings => ({ profiles: new Map(), certificates: new Map() });

export const userSettingHandlers = (base: string, check: AccessCheck, scope: MockScope, boxes: MockBoxes, { profiles, certificates }: MockUserSettings) => {
  const url = (call: string) => `${base}${call}`;
  /** The signed-in account of a call any role may make, or the refusal to answer. */
  const own = (request: Request): { account: string } | { refused: Response } => {
    const refused = upstreamRefusal(request, check, 'user-setting', 'list');
    const account = mockAccountOf(request);
    return refused !== undefined || account === undefined ? { refused: refused ?? fail(CODES.notSignedIn, 'not logged in') } : { account };
  };
  const approver = (request: Request) => upstreamRefusal(request, check, 'certificates', 'approve');
  /** Who may decide a certificate of `holder`: an account the policy lets approve that has the holder strictly below it. */
  const approversOf = (holder: string): string[] => {
    const hierarchy = scope.hierarchy();
    return [...hierarchy.accounts.values()]
      .filter((account) => check(levelToRole(account.level), { resource: 'certificates', action: 'approve' }) && isStrictlyBelow(hierarchy, account, holder))
      .map((account) => account.id);
  };

  return [
    http.post(url(USER_SETTING_CALLS.basicInfo), ({ request }) => {
      const me = own(request);
      return 'refused' in me ? me.refused : ok(profiles.get(me.account) ?? EMPTY_BASIC_INFO);
    }),
    http.post(url(USER_SETTING_CALLS.saveInfo), async ({ request }) => {
      const me = own(request);
      if ('refused' in me) return me.refused;
      const parsed = basicInfoSchema.safeParse(await readJson(request));
      if (!parsed.success) return fail(CODES.badInput, badInputMessage(parsed.error));
      profiles.set(me.account, parsed.data);
      return ok('ok');
    }),
    http.post(url(USER_SETTING_CALLS.certification), ({ request }) => {
      const me = own(request);
      return 'refused' in me ? me.refused : ok(answerOf(me.account, certificates.get(me.account) ?? []));
    }),
    http.post(url(USER_SETTING_CALLS.submitCertificate), async ({ request }) => {
      const me = own(request);
      if ('refused' in me) return me.refused;
      const parsed = certificateBodySchema.safeParse(await readJson(request));
      if (!parsed.success) return fail(CODES.badInput, badInputMessage(parsed.error));
      if (certificateExpired(parsed.data.expiresOn, Date.now())) return fail(CODES.badInput, 'the certificate has expired (expiresOn)');
      const previous = certificates.get(me.account) ?? [];
      // A certificate still waiting is replaced, and its todos with it.
      for (const replaced of previous.filter((certificate) => certificate.status === 'auditing')) boxes.drop(aboutOf(replaced));
      const id = Math.max(0, ...[...certificates.values()].flat().map((certificate) => certificate.id)) + 1;
      const submitted: MockCertificate = { id, ...parsed.data, status: 'auditing', submittedAt: Date.now(), decidedBy: null, decidedAt: null };
      const mine = [submitted, ...previous.filter((certificate) => certificate.status !== 'auditing')];
      certificates.set(me.account, mine);
      boxes.post(approversOf(me.account), certificateTodo(me.account, submitted));
      return ok(answerOf(me.account, mine));
    }),
    http.post(url(USER_SETTING_CALLS.pendingCertificates), ({ request }) => {
      const refused = approver(request);
      const viewer = scope.viewerOf(request);
      if (refused !== undefined || viewer === undefined) return refused ?? fail(CODES.notSignedIn, 'not logged in');
      const hierarchy = scope.hierarchy();
      const pending: PendingCertificate[] = [...certificates]
        .filter(([account]) => isStrictlyBelow(hierarchy, viewer, account))
        .flatMap(([account, list]) =>
          list
            .filter((certificate) => certificate.status === 'auditing')
            .map(({ number, issuer, expiresOn, submittedAt }) => ({ account, level: hierarchy.accounts.get(account)?.level ?? 3, number, issuer, expiresOn, submittedAt: iso(submittedAt) })),
        )
        .sort((a, b) => a.submittedAt.localeCompare(b.submittedAt));
      return ok(pending);
    }),
    http.post(url(USER_SETTING_CALLS.decideCertificate), async ({ request }) => {
      const refused = approver(request);
      const viewer = scope.viewerOf(request);
      if (refused !== undefined || viewer === undefined) return refused ?? fail(CODES.notSignedIn, 'not logged in');
      const parsed = certificateDecisionSchema.safeParse(await readJson(request));
      if (!parsed.success) return fail(CODES.badInput, badInputMessage(parsed.error));
      const { account, pass } = parsed.data;
      if (!isStrictlyBelow(scope.hierarchy(), viewer, account)) return fail(CODES.notFound, 'account not found');
      const waiting = (certificates.get(account) ?? []).find((certificate) => certificate.status === 'auditing');
      if (waiting === undefined) return fail(CODES.badInput, `account ${account} has no certificate waiting for a decision (account)`);
      if (pass && certificateExpired(waiting.expiresOn, Date.now())) return fail(CODES.badInput, 'the certificate has expired (account)');
      Object.assign(waiting, { status: pass ? 'pass' : 'rejected', decidedBy: viewer.id, decidedAt: Date.now() });
      boxes.resolve(aboutOf(waiting));
      return ok(null);
    }),
    http.post(url(USER_SETTING_CALLS.sessions), ({ request }) => {
      const me = own(request);
      if ('refused' in me) return me.refused;
      const current = mockTokenOf(request);
      const sessions: OpenSession[] = sessionEntries()
        .filter(([, session]) => session.account === me.account)
        .map(([token, session]) => ({
          session: sessionName(token),
          startedAt: iso(session.startedAt ?? 0),
          address: '',
          agent: session.agent ?? '',
          lastUsedAt: iso(session.startedAt ?? 0),
          current: token === current,
        }));
      return ok(sessions);
    }),
    http.post(url(USER_SETTING_CALLS.revokeSession), async ({ request }) => {
      const me = own(request);
      if ('refused' in me) return me.refused;
      const parsed = revokeSessionBodySchema.safeParse(await readJson(request));
      if (!parsed.success) return fail(CODES.badInput, badInputMessage(parsed.error));
      const found = sessionEntries().find(([token, session]) => session.account === me.account && sessionName(token) === parsed.data.session);
      if (found === undefined) return fail(CODES.notFound, 'not found');
      endSession(found[0]);
      return ok(null);
    }),
    http.post(url(USER_SETTING_CALLS.upload), ({ request }) => {
      const me = own(request);
      return 'refused' in me ? me.refused : ok('ok');
    }),
  ];
};
