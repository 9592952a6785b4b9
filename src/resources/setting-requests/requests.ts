import { z } from 'zod';
import { SETTINGS_FIELDS } from '../../domain/mqtt/payloads';
import type { CommandStatus } from '../../domain/commands';
import { changeSettingsBodySchema, type Settings } from '../devices/requests';
import type { SettingRequestStatus, SignatureMeaning } from './config';

/**
 * The parameter approval's calls and records (docs/approval.md), shared by the console, the mocks and the
 * server. The settings of a request are those of `order/change_settings` (ranges, at least one).
 */

/** `POST /api/v1/setting-requests`: the device and the settings asked for, as a settings command's body. */
export const settingRequestBodySchema = changeSettingsBodySchema;

/** `POST /api/v1/setting-requests/:id/amend`: the requester changes the settings of a waiting request; any earlier signature no longer holds. */
export const amendBodySchema = changeSettingsBodySchema.omit({ Id: true });
export type AmendBody = z.infer<typeof amendBodySchema>;

/** A signature's hash: sha256, hex. */
const settingsHashSchema = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * `POST .../:id/approve` and `.../:id/reject`: the signer's own password again, what the signature means, and
 * the hash of the settings the signer was shown (the record's `settingsHash`), so that a request changed in
 * the meantime is not signed unseen.
 */
const signatureBody = <M extends readonly [SignatureMeaning, ...SignatureMeaning[]]>(meanings: M) =>
  z.strictObject({ password: z.string().min(1).max(128), meaning: z.enum(meanings), settingsHash: settingsHashSchema });
export const approveBodySchema = signatureBody(['approval', 'review']);
export const rejectBodySchema = signatureBody(['rejection', 'review']);
export type SignatureBody = z.infer<typeof approveBodySchema> | z.infer<typeof rejectBodySchema>;

/** The settings as they are hashed and stored: only those given, in the contract's field order. */
export const canonicalSettings = (settings: Partial<Settings>): [string, string | number][] =>
  SETTINGS_FIELDS.flatMap((field) => (settings[field] === undefined ? [] : [[field, settings[field]] as [string, string | number]]));

/** An electronic signature as the record shows and prints it (21 CFR 11.50): who, when, what it means, and what it signed. */
interface SettingSignature {
  signer: string;
  signedAt: number;
  meaning: SignatureMeaning;
  settingsHash: string;
  /** False when the settings no longer hash to what was signed. */
  valid: boolean;
}

/** A request as `GET /api/v1/setting-requests/:id` answers it. */
export interface SettingRequestRecord {
  id: number;
  deviceId: string;
  status: SettingRequestStatus;
  requester: string;
  requestedAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  meaning: SignatureMeaning | null;
  cmdId: string | null;
  commandStatus: CommandStatus | null;
  commandError: string | null;
  /** The settings asked for. */
  settings: Partial<Settings>;
  /** For each setting asked for, the value the chamber last reported when the request was made (null: never). */
  before: Partial<Record<keyof Settings, string | number | null>>;
  /** sha256 of the device and the canonical settings: what a signature binds. */
  settingsHash: string;
  signature: SettingSignature | null;
}

/**
 * The old console's basic profile calls, relative to the upstream's base (API_PREFIX), in its template's
 * shape (docs/approval.md, "The old calls"): answered by the server from a real settings request and by the mocks.
 */
export const PROFILE_CALLS = { basic: '/api/profile/basic', operationLog: '/api/operation/log' } as const;

/**
 * `api/profile/basic`: the template's `status` (its steps' current one: 2 while the request waits for
 * approval, 3 once it is decided or cancelled), the request, the settings requested (`current`) and those
 * in force before (`origin`), as the template's current and origin parameter groups.
 */
export interface ProfileBasic {
  status: 2 | 3;
  request: SettingRequestRecord;
  current: Partial<Settings>;
  origin: SettingRequestRecord['before'];
}

/** `api/operation/log`: one row per audit entry of the request, in the template's shape, plus the instant, action and actor. */
export interface OperationLogRow {
  key: string;
  contentNumber: string;
  updateContent: string;
  /** The template's: 0 waiting, 1 done. */
  status: 0 | 1;
  /** `yyyy-MM-dd HH:mm:ss`, UTC. */
  updateTime: string;
  at: number;
  action: string;
  actor: string;
}

export const profileStep = (request: Pick<SettingRequestRecord, 'status'>): 2 | 3 => (request.status === 'waiting' ? 2 : 3);
