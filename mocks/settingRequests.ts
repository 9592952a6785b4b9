import { http, HttpResponse } from 'msw';
import { SETTING_REQUESTS_PATH } from '../src/resources/setting-requests/config';
import {
  amendBodySchema,
  approveBodySchema,
  PROFILE_CALLS,
  profileStep,
  rejectBodySchema,
  settingRequestBodySchema,
  type OperationLogRow,
  type SettingRequestRecord,
} from '../src/resources/setting-requests/requests';
import { settingsOf, type Settings } from '../src/resources/devices/requests';
import type { WireRecord } from '../src/resources/model';
import { badInputMessage, readJson, refusalOf, type AccessCheck } from './access';
import { mockAccountOf } from './auth';
import { fail, ok, restFail } from './envelope';
import type { MockScope } from './scope';

/**
 * Parameter approval in the mocks (docs/approval.md, "Mocks"): requesting, amending, cancelling, approving and
 * rejecting over the generated `setting-requests` table, and the old console's `api/profile/basic` and
 * `api/operation/log` in its template's shape. A seeded record (generated from the configuration) gets the
 * settings, hash and signature a request has when first read. The signature's password is not checked
 * (the mocks keep no password hashes) but must be given; its hash is a stand-in, not sha256 of the settings.
 */

const ACTIONS = { approve: 'approve', reject: 'reject', cancel: 'cancel', amend: 'request' } as const;
type MockAction = keyof typeof ACTIONS;
const isAction = (value: unknown): value is MockAction => typeof value === 'string' && Object.hasOwn(ACTIONS, value);

/** A stand-in for the server's sha256: 64 hex digits that change with the device and the settings. */
const standInHash = (deviceId: string, settings: unknown): string => {
  let hash = 0;
  for (const char of JSON.stringify([deviceId, settings])) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash.toString(16).padStart(8, '0').repeat(8);
};

/** A request as the server answers it: a seeded record completed with what the configuration leaves out. */
const completed = (record: WireRecord): SettingRequestRecord => {
  const settings = (record.settings ?? { SP: 1.3 }) as SettingRequestRecord['settings'];
  const deviceId = String(record.deviceId);
  const decided = record.status === 'approved' || record.status === 'rejected';
  const settingsHash = standInHash(deviceId, settings);
  Object.assign(record, {
    settings,
    before: record.before ?? Object.fromEntries(Object.keys(settings).map((field) => [field, null])),
    settingsHash,
    cmdId: record.cmdId ?? null,
    commandError: record.commandError ?? null,
    decidedBy: decided ? (record.decidedBy ?? 'admin') : (record.decidedBy ?? null),
    decidedAt: decided ? (record.decidedAt ?? record.requestedAt) : (record.decidedAt ?? null),
    meaning: decided ? (record.meaning ?? (record.status === 'approved' ? 'approval' : 'rejection')) : null,
    commandStatus: record.status === 'approved' ? (record.commandStatus ?? 'acked') : null,
  });
  record.signature = decided
    ? { signer: record.decidedBy, signedAt: record.decidedAt, meaning: record.meaning, settingsHash, valid: true }
    : null;
  return record as unknown as SettingRequestRecord;
};

export const settingRequestHandlers = (upstreamBase: string, restBase: string, tables: Map<string, WireRecord[]>, check: AccessCheck, scope: MockScope, now: () => number) => {
  const requests = () => tables.get(SETTING_REQUESTS_PATH) ?? [];
  const logs = new Map<number, OperationLogRow[]>();
  const url = `${restBase}/${SETTING_REQUESTS_PATH}`;
  const refuse = (request: Request, action: string) => {
    const refusal = refusalOf(request, check, { resource: SETTING_REQUESTS_PATH, action });
    if (refusal === 'notSignedIn') return restFail(50008, 'not logged in');
    return refusal === 'forbidden' ? restFail(40300, 'access denied') : undefined;
  };
  const find = (request: Request, id: unknown) => requests().find((record) => String(record.id) === String(id) && scope.seesDevice(request, record.deviceId));
  /** As the server does: for each setting asked for, the value the chamber last reported (null: never). */
  const beforeOf = (deviceId: string, settings: Partial<Settings>) => {
    const reading = ((tables.get('devices') ?? []).find((device) => device.Id === deviceId)?.Reading ?? {}) as Record<string, unknown>;
    return Object.fromEntries(Object.keys(settings).map((field) => [field, reading[field] ?? null]));
  };
  const timeOf = (at: number) => new Date(at).toISOString().slice(0, 19).replace('T', ' ');
  /** A request's entries; a seeded one starts with its own request, as the server's trail holds one for every request. */
  const entriesOf = (record: SettingRequestRecord): OperationLogRow[] => {
    const rows = logs.get(record.id) ?? [
      { key: `${record.id}-0`, contentNumber: `${record.deviceId} #${record.id}`, updateContent: `settingRequest.request (${record.requester})`, status: 1, updateTime: timeOf(record.requestedAt), at: record.requestedAt, action: 'settingRequest.request', actor: record.requester },
    ];
    logs.set(record.id, rows);
    return rows;
  };
  const log = (record: SettingRequestRecord, action: string, actor: string) => {
    const rows = entriesOf(record);
    const at = now();
    rows.push({ key: `${record.id}-${rows.length + 1}`, contentNumber: `${record.deviceId} #${record.id}`, updateContent: `${action} (${actor})`, status: 1, updateTime: timeOf(at), at, action, actor });
  };
  /** The request a profile call names (`id`), else the newest the caller reads. */
  const profileOf = async (request: Request) => {
    const fromQuery = new URL(request.url).searchParams.get('id');
    const body = request.method === 'POST' ? ((await readJson(request)) as { id?: number } | undefined) : undefined;
    const id = body?.id ?? (fromQuery === null ? undefined : Number(fromQuery));
    const visible = requests().filter((record) => scope.seesDevice(request, record.deviceId));
    const found = id === undefined ? [...visible].sort((a, b) => Number(b.requestedAt) - Number(a.requestedAt))[0] : visible.find((record) => Number(record.id) === id);
    return found === undefined ? undefined : completed(found);
  };
  const upstreamRefusal = (request: Request) => {
    const refusal = refusalOf(request, check, { resource: SETTING_REQUESTS_PATH, action: 'show' });
    return refusal === undefined ? undefined : refusal === 'notSignedIn' ? fail(50008, 'not logged in') : fail(40300, 'access denied');
  };
  const basic = async ({ request }: { request: Request }) => {
    const refused = upstreamRefusal(request);
    if (refused) return refused;
    const found = await profileOf(request);
    return ok(found === undefined ? null : { status: profileStep(found), request: found, current: found.settings, origin: found.before });
  };
  const operationLog = async ({ request }: { request: Request }) => {
    const refused = upstreamRefusal(request);
    if (refused) return refused;
    const found = await profileOf(request);
    if (found === undefined) return ok([]);
    return ok(entriesOf(found).map((row) => (row.action === 'settingRequest.request' && found.status === 'waiting' ? { ...row, status: 0 } : row)));
  };

  return [
    http.post(url, async ({ request }) => {
      const refused = refuse(request, 'request');
      if (refused) return refused;
      const body = settingRequestBodySchema.safeParse(await readJson(request));
      if (!body.success) return restFail(40000, badInputMessage(body.error));
      if (!scope.seesDevice(request, body.data.Id)) return restFail(40400, 'not found');
      const settings = settingsOf(body.data);
      const before = beforeOf(body.data.Id, settings);
      const record: WireRecord = { id: Math.max(0, ...requests().map((each) => Number(each.id))) + 1, deviceId: body.data.Id, status: 'waiting', requester: mockAccountOf(request) ?? 'unknown', requestedAt: now(), settings, before };
      requests().push(record);
      const created = completed(record);
      entriesOf(created);
      return HttpResponse.json(created, { status: 201 });
    }),
    http.post(`${url}/:id/:action`, async ({ request, params }) => {
      const { action } = params;
      if (!isAction(action)) return restFail(40400, 'not found');
      const refused = refuse(request, ACTIONS[action]);
      if (refused) return refused;
      const found = find(request, params.id);
      if (found === undefined) return restFail(40400, 'not found');
      const record = completed(found);
      const account = mockAccountOf(request) ?? 'unknown';
      // The requester's own request only, for amending and cancelling; none's own, for deciding.
      if ((action === 'cancel' || action === 'amend') !== (record.requester === account)) return restFail(40400, 'not found');
      if (record.status !== 'waiting') return restFail(40000, `request ${record.id} is ${record.status} already`);
      const input = await readJson(request);
      if (action === 'amend') {
        const body = amendBodySchema.safeParse(input);
        if (!body.success) return restFail(40000, badInputMessage(body.error));
        // As the server does: the settings replaced, and what the chamber reported taken again for them.
        const settings = settingsOf(body.data);
        Object.assign(found, { settings, before: beforeOf(record.deviceId, settings) });
      } else if (action === 'cancel') {
        found.status = 'cancelled';
      } else {
        const body = (action === 'approve' ? approveBodySchema : rejectBodySchema).safeParse(input);
        if (!body.success) return restFail(40000, badInputMessage(body.error));
        if (body.data.settingsHash !== record.settingsHash) return restFail(40000, `request ${record.id} was changed since you opened it (settingsHash)`);
        Object.assign(found, { status: action === 'approve' ? 'approved' : 'rejected', decidedBy: account, decidedAt: now(), meaning: body.data.meaning, commandStatus: action === 'approve' ? 'acked' : null });
      }
      const after = completed(found);
      log(after, `settingRequest.${action}`, account);
      return HttpResponse.json(after);
    }),
    http.get(`${upstreamBase}${PROFILE_CALLS.basic}`, basic),
    http.post(`${upstreamBase}${PROFILE_CALLS.basic}`, basic),
    http.get(`${upstreamBase}${PROFILE_CALLS.operationLog}`, operationLog),
    http.post(`${upstreamBase}${PROFILE_CALLS.operationLog}`, operationLog),
  ];
};
