import { getResponse, http, type RequestHandler } from 'msw';
import type { ResourceConfig } from '../src/resources/types';
import { RESOURCE_CONFIGS } from '../src/resources/configs';
import { devicesConfig } from '../src/resources/devices/config';
import { accountsConfig } from '../src/resources/accounts/config';
import { UPSTREAM_ALIASES } from '../src/resources/accounts/calls';
import { MAX_PAGE_SIZE } from '../src/resources/query';
import { sharedPolicy, type AccessCheck } from './access';
import { authHandlers, mockCredentials, mustChangeCodeGate, oldConsoleAccountRecords } from './auth';
import { accountCallHandlers } from './accountCalls';
import { alarmHandlers, seededAlarms } from './alarms';
import { channelFormHandlers } from './channelForms';
import { notificationHandlers } from './notifications';
import { commandLog, deviceCommandHandlers, noCommands, OLD_CONSOLE_CHAMBERS, type ChamberRates } from './deviceCommands';
import { deviceRegistryHandlers } from './deviceRegistry';
import { fleetSummaryHandlers } from './fleetSummary';
import { historyHandlers } from './history';
import { issueCommandHandlers } from './issueCommands';
import { liveHandlers } from './live';
import { messageHandlers, mockBoxes } from './messages';
import { orderHandlers, settleSeededOrders } from './orders';
import { restResourceHandlers } from './rest';
import { oldCallHandlers } from './oldCalls';
import { statsHandlers } from './stats';
import { settingRequestHandlers } from './settingRequests';
import { mockScope } from './scope';
import { MOCK_EPOCH, seedTables } from './seed';
import { mockNow, type MockState } from './state';
import { upstreamResourceHandlers } from './upstream';
import { noUserSettings, userSettingHandlers } from './userSettings';

export interface MockOptions {
  /** The resources to serve; the registry by default. */
  resources?: readonly ResourceConfig[];
  /** Who may do what; the shared policy by default. */
  canAccess?: AccessCheck;
  /** What the mocks hold; by default freshly generated tables at MOCK_EPOCH (generatedState) and the old console's accounts. */
  state?: MockState;
  /** How the mocked chambers answer commands; the old console's (all acknowledged) by default. */
  chambers?: ChamberRates;
  /** How often the live stream's chambers report (mocks/live.ts); unset, nothing moves on its own. */
  liveTickMs?: number;
}

/**
 * The unit tests' mock data: MOCK_TOTAL generated records per resource, dated back from the fixed
 * MOCK_EPOCH so runs are the same every time, and the old console's sign-in accounts, which the accounts
 * table lists with the chambers they manage. The generated accounts' upper administrators are none of
 * these: only a super administrator sees them.
 */
export const generatedState = (resources: readonly ResourceConfig[] = RESOURCE_CONFIGS): MockState => {
  const tables = seedTables(resources);
  // The sign-in accounts take the place of the last generated ones, so the list keeps MOCK_TOTAL accounts.
  const accounts = tables.get(accountsConfig.name);
  if (accounts !== undefined) accounts.splice(-3, 3, ...oldConsoleAccountRecords((tables.get(devicesConfig.name) ?? []).map((device) => device.Id)));
  settleSeededOrders(tables.get('orders') ?? []);
  // The seeded alarms' transitions and conditions, made again the way the alarms table was (mocks/seed.ts).
  const { history, condition } = seededAlarms(tables.get('devices') ?? [], MOCK_EPOCH);
  return { tables, credentials: mockCredentials(), commands: noCommands(), alarms: { history, condition }, userSettings: noUserSettings(), seededAt: MOCK_EPOCH, frozen: true };
};

/**
 * Every call the console makes, mocked with msw: sign-in, each configured resource (generated from its
 * configuration, over the state's tables), the upstream's commands to chambers and its account calls.
 * Each call gets its own state unless given one. The first matching handler answers, so the order is:
 * the 40300 gate of an account that must change its password, sign-in, the commands, the account calls,
 * the booking calls (add_Admin with the level rule before the generated create) and the alarms' actions,
 * history and rule edits, the generated resource handlers, then the command log's REST read, a device's
 * history, the message box, the workplace's fleet summary, the template forms' submit and the live stream; last, the server's other
 * names of calls (src/resources/aliases.ts), each answered by the call it names.
 */
/** The server's other names of calls (src/resources/accounts/calls.ts), each answered as the call it names. */
const aliasHandlers = (base: string, answer: (request: Request) => Promise<Response | undefined>) =>
  Object.entries(UPSTREAM_ALIASES).map(([alias, call]) =>
    http.post(`${base}${alias}`, async ({ request }) =>
      answer(new Request(`${base}${call}`, { method: 'POST', headers: request.headers, body: await request.text() })),
    ),
  );

export const handlers = (
  upstreamBase: string,
  restBase: string,
  { resources = RESOURCE_CONFIGS, canAccess = sharedPolicy, state = generatedState(resources), chambers = OLD_CONSOLE_CHAMBERS, liveTickMs }: MockOptions = {},
): RequestHandler[] => {
  const { tables, credentials } = state;
  const tableOf = (config: ResourceConfig) => tables.get(config.name) ?? [];
  const commands = commandLog(state.commands, chambers);
  // Every answer keeps to the signed-in account's scope, by the same model as the server (./scope.ts).
  const scope = mockScope(tables, credentials);
  // The message boxes: the box's calls read them, the certificates' calls post and settle their todos.
  const boxes = mockBoxes({ seededAt: state.seededAt, devices: tableOf(devicesConfig), boxes: state.messages });
  const all: RequestHandler[] = [];
  /** A call answered by the handlers above, as the console would make it (the live stream asks the device list who sees what). */
  const answer = (request: Request) => getResponse(all, request);
  const devicesVisibleTo = async (request: Request): Promise<ReadonlySet<string>> => {
    if (devicesConfig.adapter !== 'upstream') return new Set();
    const response = await answer(
      new Request(`${upstreamBase}${devicesConfig.endpoints.list}`, {
        method: 'POST',
        headers: { authorization: request.headers.get('authorization') ?? '', 'content-type': 'application/json' },
        body: JSON.stringify({ current: 1, pageSize: MAX_PAGE_SIZE }),
      }),
    );
    const body = (await response?.json().catch(() => undefined)) as { data?: { list?: { Id: string }[] } } | undefined;
    return new Set((body?.data?.list ?? []).map((device) => device.Id));
  };
  all.push(
    mustChangeCodeGate(upstreamBase, credentials),
    ...authHandlers(upstreamBase, credentials),
    ...issueCommandHandlers(upstreamBase, tables, canAccess, scope, commands),
    ...accountCallHandlers(upstreamBase, tables, canAccess, scope, credentials),
    ...orderHandlers(restBase, tables, canAccess, scope, commands),
    ...alarmHandlers(restBase, tables, canAccess, scope, state.alarms),
    ...settingRequestHandlers(upstreamBase, restBase, tables, canAccess, scope, () => mockNow(state)),
    ...notificationHandlers(restBase, tables, canAccess, scope),
    ...resources.flatMap((config) =>
      config.adapter === 'upstream'
        ? upstreamResourceHandlers(upstreamBase, config, tableOf(config), canAccess, scope)
        : restResourceHandlers(restBase, config, tableOf(config), canAccess, scope),
    ),
    ...deviceCommandHandlers(restBase, commands, canAccess, scope),
    ...deviceRegistryHandlers(restBase, tables, canAccess),
    ...historyHandlers(restBase, tables, canAccess, scope),
    ...messageHandlers(upstreamBase, canAccess, boxes),
    ...fleetSummaryHandlers(restBase, tables, canAccess, scope, () => mockNow(state)),
    ...channelFormHandlers(upstreamBase, canAccess),
    ...userSettingHandlers(upstreamBase, canAccess, scope, boxes, state.userSettings),
    ...statsHandlers(upstreamBase, restBase, tables, canAccess, scope, commands, () => mockNow(state)),
    ...liveHandlers(restBase, { devices: () => tableOf(devicesConfig), commands, visibleTo: devicesVisibleTo, tickMs: liveTickMs }),
    ...aliasHandlers(upstreamBase, answer),
    ...oldCallHandlers(upstreamBase, { tables, check: canAccess, scope, credentials, now: () => mockNow(state), answer }),
  );
  return all;
};
