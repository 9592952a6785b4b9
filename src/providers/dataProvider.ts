import { HttpError, type DataProvider, type RaRecord } from 'react-admin';
import { SETTING_REQUESTS_PATH } from '../resources/setting-requests/config';
import { PROFILE_CALLS, type AmendBody, type OperationLogRow, type ProfileBasic, type SettingRequestRecord, type SignatureBody } from '../resources/setting-requests/requests';
import { CODES } from '../domain/envelope';
import { MESSAGE_CALLS, type MessageListAnswer, type MessageListBody, type MessageReadAnswer, type MessageReadBody } from '../domain/messages';
import type { AdminResetBody, AssignDevicesBody, ResetAnswer, SelfResetBody } from '../resources/accounts/calls';
import { ACCOUNT_CALLS } from '../resources/accounts/config';
import { DEVICE_COMMANDS_PATH } from '../resources/devices/commandLog';
import type { ChangeSettingsBody, DeviceCommandRecord, IssuedCommand } from '../resources/devices/requests';
import { DEVICE_COMMANDS } from '../resources/devices/config';
import { type DeviceState } from '../domain/devices';
import { findResource, recordId, restWritePath, sourcesIn, writable, type WireRecord } from '../resources/model';
import type { ResourceConfig } from '../resources/types';
import { ORDERS_PATH, type BookingBody } from '../resources/orders/requests';
import { sessionReportSchema, type SessionReport } from '../domain/sessionReport';
import { USER_MENU_PATH, type UserMenuEntry } from '../domain/menu';
import { CHANNEL_FORM_SUBMIT_PATH, type ChannelFormBody } from '../domain/channelForm';
import { FLEET_SUMMARY_PATH, fleetSummarySchema, type FleetSummary } from '../domain/fleetSummary';
import { pivotAnswerSchema, STATS_PATHS, statsOverviewSchema, statsReadingsSchema, type PivotQuery, type StatsRange } from '../domain/stats';
import { historyAnswerSchema, type HistoryAnswer, type HistoryQuery } from '../domain/history';
import { alarmRecordSchema, type AlarmRecord, type AlarmTransition } from '../domain/alarms/record';
import { OPEN_ALARM_STATES } from '../domain/alarms/open';
import { ALARMS_PATH, type AlarmAction, type AlarmActionBody } from '../resources/alarms/requests';
import { deviceCredentialsSchema, type DeviceCredentials } from '../domain/mqtt/connection';
import type { AlarmDelivery, NotificationPreferences, NotificationPreferencesAnswer } from '../domain/notifications';
import { quietly, UpstreamError, type HttpClient } from './httpClient';
import { MAX_PAGE_SIZE } from '../resources/query';
import { createRestFetch, createRestProvider } from './rest';
import type { TokenStore } from './tokenStore';
import { createUpstreamProvider } from './upstream';
import { userSettingMethods } from './userSettingCalls';

export interface DataProviderOptions {
  http: HttpClient;
  restBase: string;
  /** The console's language, for the REST API's messages (the upstream client has its own). */
  locale?: () => string;
  tokens: TokenStore;
  resources: readonly ResourceConfig[];
}

const METHODS = [
  'getList',
  'getOne',
  'getMany',
  'getManyReference',
  'create',
  'update',
  'updateMany',
  'delete',
  'deleteMany',
] as const;
type Method = (typeof METHODS)[number];
type Call = (resource: string, params: unknown) => Promise<unknown>;

/** One page of the largest size the lists allow: more open alarms in one scope is a flood past what any screen can say. */
const OPEN_ALARMS_MAX = MAX_PAGE_SIZE;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The field a 40000 message names (docs/product.md: "msg names the field"), among `fields`: the server
 * writes it first ("Code cannot be empty", the mocks' "Level: …") or in parentheses ("… (Level)",
 * "…（OldCode）"), a list's item with its index ("DeviceIds.0"). Undefined when it names none of them.
 */
export const namedField = (message: string, fields: readonly string[]): string | undefined =>
  fields.find((field) => {
    const name = `${escape(field)}(?:\\.\\d+)?`;
    return new RegExp(`^${name}(?![\\w])|[(（]${name}[)）]`, 'u').test(message);
  });

/** The field of the form that a failed call's 40000 names, or undefined. */
export const badInputField = (error: unknown, fields: readonly string[]): string | undefined =>
  error instanceof UpstreamError && error.code === CODES.badInput ? namedField(error.message, fields) : undefined;

/**
 * A 40000 that names a field of the form becomes react-admin's server-side validation error
 * (`body.errors`): the message shows under that field instead of as a toast.
 */
const onTheField = (config: ResourceConfig, view: 'create' | 'edit', error: unknown): unknown => {
  const field = badInputField(error, sourcesIn(config, view));
  if (!field || !(error instanceof UpstreamError)) return error;
  const body: object = typeof error.body === 'object' && error.body !== null ? error.body : {};
  return new UpstreamError(error.message, error.code, error.status, { ...body, errors: { [field]: error.message } });
};

/** A REST refusal (`{ message, code }`) as the upstream client's error, so a 40000 naming a field lands under it. */
const asUpstreamError = (error: unknown): unknown => {
  if (!(error instanceof HttpError) || error instanceof UpstreamError) return error;
  const body: unknown = error.body;
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? new UpstreamError(error.message, code, error.status, body) : error;
};

/** The command a device call answers with (our server's `cmdId`); nothing from an upstream that sends none. */
const issuedCommand = (answer: unknown): Partial<IssuedCommand> => {
  const cmdId: unknown = typeof answer === 'object' && answer !== null ? (answer as Partial<Record<string, unknown>>).cmdId : undefined;
  return typeof cmdId === 'string' ? { cmdId } : {};
};

/**
 * The console's one data provider: each resource goes to the upstream or the REST adapter as its
 * configuration says (a REST resource under its `path`), and the upstream's commands are custom methods.
 */
export const createDataProvider = ({ http, restBase, tokens, resources, locale }: DataProviderOptions) => {
  // react-admin announces failed data calls itself; the HTTP client announces only the custom methods'.
  const upstreamQuiet = quietly(http);
  const upstream: DataProvider = createUpstreamProvider(upstreamQuiet, resources);
  const rest = createRestProvider(restBase, tokens, locale, http.fetch);
  const restFetch = createRestFetch(tokens, locale, http.fetch);
  /** A stats call's address: the query's fields as parameters. */
  const statsUrl = (path: string, query: Readonly<Record<string, string | number>>) =>
    `${restBase}/${path}?${new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString()}`;
  const alarmUrl = (id: RaRecord['id'], action?: string) =>
    `${restBase}/${ALARMS_PATH}/${encodeURIComponent(String(id))}${action === undefined ? '' : `/${action}`}`;
  const orderUrl = (id: RaRecord['id'], action: string) => `${restBase}/${ORDERS_PATH}/${encodeURIComponent(String(id))}/${action}`;

  /** An upstream resource's create or delete that the REST API serves (UpstreamEndpoints.rest): the answer is the record as listed. */
  const restWrite = async (config: ResourceConfig, path: string, method: 'create' | 'delete', params: unknown): Promise<{ data: RaRecord }> => {
    const url = `${restBase}/${path}`;
    const { json } =
      method === 'create'
        ? await restFetch(url, { method: 'POST', body: JSON.stringify(writable(config, 'create', (params as { data: WireRecord }).data)) })
        : await restFetch(`${url}/${encodeURIComponent(String((params as { id: RaRecord['id'] }).id))}`, { method: 'DELETE' });
    const record = json as WireRecord;
    return { data: { ...record, id: recordId(config, record) } };
  };

  const route = (method: Method): Call => async (resource, params) => {
    const config = findResource(resources, resource);
    const restPath = method === 'create' || method === 'delete' ? restWritePath(config, method) : undefined;
    if (restPath !== undefined && (method === 'create' || method === 'delete')) {
      const written = restWrite(config, restPath, method, params);
      return method === 'create' ? written.catch((error: unknown) => Promise.reject(onTheField(config, 'create', asUpstreamError(error)))) : written;
    }
    const [adapter, name] = config.adapter === 'upstream' ? [upstream, resource] : [rest, config.path ?? resource];
    const view = method === 'create' ? 'create' : method === 'update' ? 'edit' : undefined;
    // simple-rest sends the whole record the form holds; the server takes only what the form writes.
    const sent = view && config.adapter === 'rest' ? { ...(params as { data: WireRecord }), data: writable(config, view, (params as { data: WireRecord }).data) } : params;
    // Every adapter method has react-admin's (resource, params) signature; only the record types differ.
    const call = (adapter[method] as Call)(name, sent);
    return view ? call.catch((error: unknown) => Promise.reject(onTheField(config, view, error))) : call;
  };

  return {
    ...(Object.fromEntries(METHODS.map((method) => [method, route(method)])) as Pick<DataProvider, Method>),
    // The device commands answer the device and the command sent to the chamber, to follow with commandOutcome.
    changePermission: async ({ Id }: { Id: string }): Promise<Partial<IssuedCommand>> =>
      issuedCommand(await http.post(DEVICE_COMMANDS.changePermission, { Id })),
    changeState: async ({ Id, State }: { Id: string; State: DeviceState }): Promise<Partial<IssuedCommand>> =>
      issuedCommand(await http.post(DEVICE_COMMANDS.changeState, { Id, State })),
    /** Only the settings to change (SP, ST, SS, SL, SA); at least one. */
    changeSettings: async (body: ChangeSettingsBody): Promise<Partial<IssuedCommand>> =>
      issuedCommand(await http.post(DEVICE_COMMANDS.changeSettings, body)),
    /**
     * A new MQTT secret for the device (`POST /api/v1/devices/:Id/secret`): the old one stops working and its
     * connection ends. The answer, and only it, holds the secret and where the broker is: shown once.
     */
    rotateDeviceSecret: async (Id: string): Promise<DeviceCredentials> =>
      deviceCredentialsSchema.parse((await restFetch(`${restBase}/devices/${encodeURIComponent(Id)}/secret`, { method: 'POST', body: '{}' })).json),
    /** What became of a command so far (`GET /api/v1/device-commands/:cmdId`); fails quietly, the caller decides. */
    commandOutcome: async (cmdId: string): Promise<DeviceCommandRecord> =>
      (await rest.getOne<DeviceCommandRecord & RaRecord>(DEVICE_COMMANDS_PATH, { id: cmdId })).data,
    /** A device's latest commands, newest first, with their outcomes (the device detail's command history). */
    deviceCommandLog: async (Id: string, perPage: number): Promise<DeviceCommandRecord[]> =>
      (
        await rest.getList<DeviceCommandRecord & RaRecord>(DEVICE_COMMANDS_PATH, {
          filter: { Id },
          sort: { field: 'issuedAt', order: 'DESC' },
          pagination: { page: 1, perPage },
        })
      ).data,
    /** A device's readings over a range in buckets (`GET /api/v1/devices/{Id}/history`); fails quietly, the chart shows why. */
    deviceHistory: async (Id: string, { from, to, points }: HistoryQuery): Promise<HistoryAnswer> => {
      const query = new URLSearchParams({ from: String(from), to: String(to), points: String(points) });
      const { json } = await restFetch(`${restBase}/devices/${encodeURIComponent(Id)}/history?${query.toString()}`);
      return historyAnswerSchema.parse(json);
    },
    /** The new password is shown once to the administrator; the account must change it at next sign-in. */
    resetPassword: ({ Account }: AdminResetBody) => http.post<ResetAnswer>(ACCOUNT_CALLS.resetPassword, { Account }),
    /** The caller's own password; a wrong OldCode is 40000 naming OldCode. */
    changeOwnPassword: async ({ OldCode, NewCode }: SelfResetBody): Promise<void> => {
      await http.post(ACCOUNT_CALLS.changeOwnPassword, { OldCode, NewCode });
    },
    /** The account's managed devices become exactly DeviceIds; answers the account as the list shows it. */
    assignDevices: ({ Account, DeviceIds }: AssignDevicesBody) => http.post<WireRecord>(ACCOUNT_CALLS.assignDevices, { Account, DeviceIds }),
    /** Books a chamber for a guest; fails with the server's message (a 400 names its field), which the caller shows. */
    bookChamber: async (body: BookingBody): Promise<WireRecord> =>
      (await restFetch(`${restBase}/${ORDERS_PATH}`, { method: 'POST', body: JSON.stringify(body) })).json as WireRecord,
    /** Cancels a booking not yet used. */
    cancelBooking: async (id: RaRecord['id']): Promise<WireRecord> =>
      (await restFetch(orderUrl(id, 'cancel'), { method: 'POST', body: '{}' })).json as WireRecord,
    /** An order's session report (src/domain/sessionReport.ts). */
    sessionReport: async (id: RaRecord['id']): Promise<SessionReport> => sessionReportSchema.parse((await restFetch(orderUrl(id, 'report'))).json),
    /** The menu the server offers the signed-in role (menuFromServer); fails quietly, the caller announces it. */
    userMenu: () => upstreamQuiet.post<UserMenuEntry[]>(USER_MENU_PATH),
    // The message box asks again on every new message; a failure shows in the box, not as a toast.
    messageList: (body: MessageListBody) => upstreamQuiet.post<MessageListAnswer>(MESSAGE_CALLS.list, body),
    readMessages: ({ ids }: MessageReadBody) => http.post<MessageReadAnswer>(MESSAGE_CALLS.read, { ids }),
    /**
     * Every open alarm in the caller's scope (docs/alarms.md), at most OPEN_ALARMS_MAX of them, newest
     * first: what the banner, the app bar and the chambers' marks start from before live events move them.
     */
    openAlarms: async (): Promise<AlarmRecord[]> => {
      const query = new URLSearchParams({
        filter: JSON.stringify({ state: OPEN_ALARM_STATES }),
        sort: JSON.stringify(['raisedAt', 'DESC']),
        range: JSON.stringify([0, OPEN_ALARMS_MAX - 1]),
      });
      const { json } = await restFetch(`${restBase}/${ALARMS_PATH}?${query.toString()}`);
      return alarmRecordSchema.array().parse(json);
    },
    /** An operator's action on an alarm (acknowledge, shelve, unshelve, close); answers the alarm after it. */
    alarmAction: async <A extends AlarmAction>(id: RaRecord['id'], action: A, body: AlarmActionBody<A>): Promise<AlarmRecord> =>
      alarmRecordSchema.parse((await restFetch(alarmUrl(id, action), { method: 'POST', body: JSON.stringify(body) })).json),
    /** An alarm's transitions, oldest first. */
    alarmHistory: async (id: RaRecord['id']): Promise<AlarmTransition[]> =>
      (await restFetch(`${alarmUrl(id)}/history`)).json as AlarmTransition[],
    /** A lowUser's settings change, filed for approval instead of sent (docs/approval.md); answers the request. */
    requestSettings: async (body: ChangeSettingsBody): Promise<SettingRequestRecord> =>
      (await restFetch(`${restBase}/${SETTING_REQUESTS_PATH}`, { method: 'POST', body: JSON.stringify(body) })).json as SettingRequestRecord,
    /** Approve or reject (signed: password, meaning, the settings hash shown), or the requester's cancel; answers the request. */
    settingRequestAction: async (id: number, action: 'approve' | 'reject' | 'cancel', body: Partial<SignatureBody> = {}): Promise<SettingRequestRecord> =>
      (await restFetch(`${restBase}/${SETTING_REQUESTS_PATH}/${id}/${action}`, { method: 'POST', body: JSON.stringify(body) })).json as SettingRequestRecord,
    /** The requester's new settings for its waiting request: a new settings hash, so the approvers sign again. */
    amendSettingRequest: async (id: number, settings: AmendBody): Promise<SettingRequestRecord> =>
      (await restFetch(`${restBase}/${SETTING_REQUESTS_PATH}/${id}/amend`, { method: 'POST', body: JSON.stringify(settings) })).json as SettingRequestRecord,
    /** The old console's basic profile: one request (the newest the caller reads when no id), or null. */
    profileBasic: (id?: number) => upstreamQuiet.post<ProfileBasic | null>(PROFILE_CALLS.basic, id === undefined ? {} : { id }),
    /** The request's operation log from the audit trail, oldest first. */
    operationLog: (id?: number) => upstreamQuiet.post<OperationLogRow[]>(PROFILE_CALLS.operationLog, id === undefined ? {} : { id }),
    /** A template form (src/domain/channelForm.ts); a refusal fails with the server's message, naming the field. */
    submitChannelForm: async (body: ChannelFormBody): Promise<void> => {
      await http.post(CHANNEL_FORM_SUBMIT_PATH, body);
    },
    /** What was sent for an alarm beyond the console, and how each delivery went (docs/notifications.md). */
    alarmNotifications: async (id: RaRecord['id']): Promise<AlarmDelivery[]> => (await restFetch(`${alarmUrl(id)}/notifications`)).json as AlarmDelivery[],
    /** Sends a test on a notification channel; answers whether the receiver took it, and what it said. */
    sendTestNotification: async (id: RaRecord['id']): Promise<{ ok: boolean; answer: string }> =>
      (await restFetch(`${restBase}/notification-channels/${encodeURIComponent(String(id))}/test`, { method: 'POST', body: '{}' })).json as { ok: boolean; answer: string },
    /** The signed-in account's own notification choices, and the channels it may choose. */
    notificationPreferences: async (): Promise<NotificationPreferencesAnswer> => (await restFetch(`${restBase}/notification-preferences`)).json as NotificationPreferencesAnswer,
    saveNotificationPreferences: async (preferences: NotificationPreferences): Promise<NotificationPreferencesAnswer> =>
      (await restFetch(`${restBase}/notification-preferences`, { method: 'PUT', body: JSON.stringify(preferences) })).json as NotificationPreferencesAnswer,
    /** The workplace's figures for the browser's day (`tz`: its getTimezoneOffset); fails quietly, the page shows it. */
    fleetSummary: async (tz: number): Promise<FleetSummary> =>
      fleetSummarySchema.parse((await restFetch(`${restBase}/${FLEET_SUMMARY_PATH}?tz=${tz}`)).json),
    /** The analysis page's aggregates over the caller's chambers and a range (docs/analysis.md). */
    statsOverview: async (range: StatsRange) => statsOverviewSchema.parse((await restFetch(statsUrl(STATS_PATHS.overview, range))).json),
    statsReadings: async (range: StatsRange) => statsReadingsSchema.parse((await restFetch(statsUrl(STATS_PATHS.readings, range))).json),
    /** One measure grouped by a dimension (the multi-dimensional analysis). */
    statsPivot: async (query: PivotQuery) => pivotAnswerSchema.parse((await restFetch(statsUrl(STATS_PATHS.pivot, query))).json),
    ...userSettingMethods(http),
  } satisfies DataProvider;
};

/** `useDataProvider<ConsoleDataProvider>()` sees the custom methods. */
export type ConsoleDataProvider = ReturnType<typeof createDataProvider>;
