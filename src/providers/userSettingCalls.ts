import {
  basicInfoAnswerSchema,
  certificationAnswerSchema,
  openSessionSchema,
  pendingCertificateSchema,
  USER_SETTING_CALLS,
  type BasicInfo,
  type CertificateBody,
  type CertificateDecision,
  type CertificationAnswer,
  type OpenSession,
  type PendingCertificate,
  type RevokeSessionBody,
} from '../domain/userSettings';
import type { HttpClient } from './httpClient';

/**
 * The user settings' calls (docs/user-settings.md) as data provider methods: each answer checked by the
 * shared schema; a refusal fails with the server's message (a 40000 names its field), which the HTTP client
 * also shows.
 */
export const userSettingMethods = (http: HttpClient) => ({
  basicInfo: async (): Promise<BasicInfo> => basicInfoAnswerSchema.parse(await http.post(USER_SETTING_CALLS.basicInfo)),
  saveBasicInfo: async (info: BasicInfo): Promise<void> => {
    await http.post(USER_SETTING_CALLS.saveInfo, info);
  },
  certification: async (): Promise<CertificationAnswer> => certificationAnswerSchema.parse(await http.post(USER_SETTING_CALLS.certification)),
  submitCertificate: async (body: CertificateBody): Promise<CertificationAnswer> =>
    certificationAnswerSchema.parse(await http.post(USER_SETTING_CALLS.submitCertificate, body)),
  /** The certificates waiting for the caller's decision (an administrator's), oldest first. */
  pendingCertificates: async (): Promise<PendingCertificate[]> =>
    pendingCertificateSchema.array().parse(await http.post(USER_SETTING_CALLS.pendingCertificates)),
  decideCertificate: async (body: CertificateDecision): Promise<void> => {
    await http.post(USER_SETTING_CALLS.decideCertificate, body);
  },
  openSessions: async (): Promise<OpenSession[]> => openSessionSchema.array().parse(await http.post(USER_SETTING_CALLS.sessions)),
  revokeSession: async (body: RevokeSessionBody): Promise<void> => {
    await http.post(USER_SETTING_CALLS.revokeSession, body);
  },
});
