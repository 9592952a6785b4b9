import { z } from 'zod';

/**
 * The user settings' contract (docs/user-settings.md), shared by the console's forms, the msw mocks and the
 * server: an account's basic information, its operator certificate and its open sessions. The calls are the
 * old console's (`/api/user/save-info`, `/api/user/certification`, `/api/user/upload`) and ours beside them.
 */

/** The calls, relative to the upstream's base (API_PREFIX). */
export const USER_SETTING_CALLS = {
  basicInfo: '/api/user/basic-info',
  saveInfo: '/api/user/save-info',
  certification: '/api/user/certification',
  submitCertificate: '/api/user/certification/submit',
  pendingCertificates: '/api/user/certification/pending',
  decideCertificate: '/api/user/certification/decide',
  sessions: '/api/user/sessions',
  revokeSession: '/api/user/sessions/revoke',
  upload: '/api/user/upload',
} as const;

/** The longest each basic-info field may be, in characters; the profile text's limit is PROFILE_MAX_WORDS. */
export const BASIC_INFO_MAX = { email: 254, nickname: 32, countryRegion: 64, area: 64, address: 200, phone: 32 } as const;

/** The profile text's limit, as the old console set it (its form's `maxLength: 200`). */
export const PROFILE_MAX_WORDS = 200;

/**
 * How long a profile text is against its limit. The old console counted the string's characters (its
 * Chinese message: 不能超过200个字), so a "word" is one character here too: a Chinese character counts one, as
 * does a letter, a digit, a space or a punctuation mark. Characters are counted as Unicode code points, so a
 * character outside the basic plane (an emoji, a rare CJK ideograph) counts one, not two as `.length` would.
 */
export const profileWords = (text: string): number => Array.from(text).length;

const required = (max: number) => z.string().trim().min(1).max(max);
const optional = (max: number) => z.string().trim().max(max).default('');

/** A phone number as people write it: digits, with an optional leading +, spaces, dashes and brackets. */
const PHONE_PATTERN = /^\+?[0-9][0-9 ()-]{3,31}$/;

/** `/api/user/save-info`'s body and `/api/user/basic-info`'s answer: email, nickname, country/region and area required. */
export const basicInfoSchema = z.strictObject({
  email: required(BASIC_INFO_MAX.email).pipe(z.email()),
  nickname: required(BASIC_INFO_MAX.nickname),
  countryRegion: required(BASIC_INFO_MAX.countryRegion),
  area: required(BASIC_INFO_MAX.area),
  address: optional(BASIC_INFO_MAX.address),
  phone: optional(BASIC_INFO_MAX.phone).refine((phone) => phone === '' || PHONE_PATTERN.test(phone)),
  profile: z
    .string()
    .default('')
    .refine((text) => profileWords(text) <= PROFILE_MAX_WORDS, { params: { messageKey: 'validation.tooLong', max: PROFILE_MAX_WORDS } }),
});
export type BasicInfo = z.output<typeof basicInfoSchema>;

/** `/api/user/basic-info`'s answer: what is stored, all empty before the first save (so not held to the rules). */
export const basicInfoAnswerSchema = z.object({
  email: z.string(),
  nickname: z.string(),
  countryRegion: z.string(),
  area: z.string(),
  address: z.string(),
  phone: z.string(),
  profile: z.string(),
});

/** What an account that never saved its basic information holds. */
export const EMPTY_BASIC_INFO: BasicInfo = { email: '', nickname: '', countryRegion: '', area: '', address: '', phone: '', profile: '' };

/** A certificate's state: waiting for an administrator above (auditing), approved (pass) or refused. */
export const CERTIFICATE_STATUSES = ['auditing', 'pass', 'rejected'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];
/** The old console's numeric status (0 waiting, 1 passed), and 2 for a refusal, which it did not have. */
export const WIRE_STATUS: Record<CertificateStatus, 0 | 1 | 2> = { auditing: 0, pass: 1, rejected: 2 };

export const CERTIFICATE_NUMBER_MAX = 64;
export const CERTIFICATE_ISSUER_MAX = 128;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day `YYYY-MM-DD` that exists (no 2027-02-30). */
const isCalendarDay = (day: string): boolean => {
  if (!DAY.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
};

/** True when a certificate expiring on `expiresOn` (valid through that day, UTC) has expired at `now`. */
export const certificateExpired = (expiresOn: string, now: number): boolean => Date.parse(`${expiresOn}T23:59:59.999Z`) < now;

/** `/api/user/certification/submit`: an operator's certificate, to be approved by an administrator above. */
export const certificateBodySchema = z.strictObject({
  number: required(CERTIFICATE_NUMBER_MAX),
  issuer: required(CERTIFICATE_ISSUER_MAX),
  expiresOn: z.string().trim().refine(isCalendarDay),
});
export type CertificateBody = z.output<typeof certificateBodySchema>;

/** `/api/user/certification/decide`: pass or refuse the waiting certificate of an account below the caller. */
export const certificateDecisionSchema = z.strictObject({ account: z.string().trim().min(1).max(64), pass: z.boolean() });
export type CertificateDecision = z.output<typeof certificateDecisionSchema>;

/**
 * `/api/user/certification`'s answer, in the old console's shape: `enterpriseInfo` is the account's latest
 * certificate (null before its first), `record` every one it submitted, newest first. The old field names
 * hold ours: authenticationNumber the certificate's number, enterpriseName its issuer, time when it was
 * submitted (ISO); expiresOn, approver and decidedAt are added.
 */
const certificationInfoSchema = z.object({
  accountType: z.literal('operator'),
  status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  time: z.string(),
  legalPerson: z.string(),
  certificateType: z.literal('operator'),
  authenticationNumber: z.string(),
  enterpriseName: z.string(),
  expiresOn: z.string(),
  approver: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export const certificationAnswerSchema = z.object({
  enterpriseInfo: certificationInfoSchema.nullable(),
  record: z.array(z.object({ certificationType: z.literal(1), certificationContent: z.string(), status: z.union([z.literal(0), z.literal(1), z.literal(2)]), time: z.string() })),
});
export type CertificationAnswer = z.output<typeof certificationAnswerSchema>;

/** One waiting certificate an administrator may decide: of an account strictly below it. */
export const pendingCertificateSchema = z.object({
  account: z.string(),
  level: z.number(),
  number: z.string(),
  issuer: z.string(),
  expiresOn: z.string(),
  submittedAt: z.string(),
});
export type PendingCertificate = z.output<typeof pendingCertificateSchema>;

/**
 * One open session (sign-in) of the caller: `session` names it for revoking (not the token, nor its stored
 * hash); where it started is the address and browser of the sign-in; `current` marks the caller's own.
 */
export const openSessionSchema = z.object({
  session: z.string(),
  startedAt: z.string(),
  address: z.string(),
  agent: z.string(),
  lastUsedAt: z.string(),
  current: z.boolean(),
});
export type OpenSession = z.output<typeof openSessionSchema>;

export const revokeSessionBodySchema = z.strictObject({ session: z.string().regex(/^[0-9a-f]{16}$/) });
export type RevokeSessionBody = z.output<typeof revokeSessionBodySchema>;

/** The stored browser description is cut to this many characters. */
export const SESSION_AGENT_MAX = 255;
