import { z } from 'zod';
import { MESSAGE_CALLS } from './messages';
import { chatListSchema, OLD_MOCK_PAGING, policyListSchema, popularListSchema, serviceListSchema, TEMPLATE_CALLS } from './templateCalls';
import { latestActivityAnswerSchema, myProjectsAnswerSchema, myTeamsAnswerSchema, USER_CENTER_CALLS, visitsAnswerSchema } from './userCenter';

/**
 * Every mocked call of the old console (its specification, point 7, "Mocked calls"), and which side
 * answers it: the msw mocks answer every one in its old shape; the server answers those with real data
 * behind them. One table, so tests/server/old-calls.spec.ts can check each row against both sides, and
 * so the calls built on other branches are rows here (their `owner`) rather than lists elsewhere.
 * docs/product.md, "The old console's mocked calls", says why each server: false row is not answered.
 */

/** Who builds the answers: `built` before this table, `old-calls` with it, the others beside it (issue's points 1–4). */
type OldCallOwner = 'built' | 'old-calls' | 'analysis' | 'approval' | 'user-settings' | 'forms';

/** What a request may name: a chamber and an account of the caller's scope, and the caller's own sign-in. */
export interface OldCallTarget {
  device: string;
  account: string;
  password: string;
}

export interface OldCall {
  method: 'GET' | 'POST';
  /** Relative to the upstream's base (API_PREFIX). */
  path: string;
  owner: OldCallOwner;
  /** Whether the server answers it too; the mocks answer every call. */
  server: boolean;
  /** The query and body as the old console sent them (none: a call without a payload). */
  query?: Readonly<Record<string, string>>;
  body?: (target: OldCallTarget) => unknown;
  /** The answer's `data` in its old shape; unset where the owner's own tests hold the shape. */
  shape?: z.ZodType;
  /** The call needs no sign-in. */
  public?: true;
}

const paged = z.object({ list: z.array(z.unknown()), total: z.number().int().nonnegative() });
const firstPage = { current: OLD_MOCK_PAGING.current, pageSize: OLD_MOCK_PAGING.pageSize };

/** How many step forms the table has sent, for a new activity name each time. */
let submittedActivities = 0;

export const OLD_CALLS: readonly OldCall[] = [
  { method: 'POST', path: '/login', owner: 'built', server: true, public: true, body: ({ account, password }) => ({ Account: account, Code: password }), shape: z.object({ State: z.literal(true), Account: z.string(), Level: z.number().int() }) },
  { method: 'GET', path: '/list/user', owner: 'old-calls', server: true, query: { current: '1', pageSize: '10' }, shape: paged },
  { method: 'POST', path: '/list/get_Records', owner: 'built', server: true, body: () => firstPage, shape: paged },
  { method: 'POST', path: '/list/get_OCState', owner: 'built', server: true, body: () => firstPage, shape: paged },
  { method: 'POST', path: '/list/get_OCProperty', owner: 'built', server: true, body: () => firstPage, shape: paged },
  { method: 'POST', path: '/order/change_permission', owner: 'built', server: true, body: ({ device }) => ({ Id: device }), shape: z.object({ Id: z.string(), Permission: z.string() }) },
  { method: 'POST', path: '/order/change_state', owner: 'built', server: true, body: ({ device }) => ({ Id: device, State: 'Stop' }), shape: z.object({ Id: z.string(), State: z.literal('Stop') }) },
  {
    method: 'POST',
    path: '/api/user/save-info',
    owner: 'user-settings',
    server: true,
    body: () => ({ email: 'first@example.com', nickname: 'First', countryRegion: 'China', area: 'Beijing', address: 'Chaoyang', profile: 'Runs the Beijing chambers.' }),
  },
  { method: 'POST', path: '/api/user/certification', owner: 'user-settings', server: true },
  // The old console's avatar upload: the server keeps no uploads (docs/user-settings.md), so the mocks alone answer it.
  { method: 'POST', path: '/api/user/upload', owner: 'user-settings', server: false },
  { method: 'POST', path: USER_CENTER_CALLS.visits, owner: 'old-calls', server: true, shape: visitsAnswerSchema },
  { method: 'POST', path: USER_CENTER_CALLS.myProjects, owner: 'old-calls', server: true, shape: myProjectsAnswerSchema },
  { method: 'POST', path: USER_CENTER_CALLS.myTeams, owner: 'old-calls', server: true, shape: myTeamsAnswerSchema },
  { method: 'POST', path: USER_CENTER_CALLS.latestActivity, owner: 'old-calls', server: true, shape: latestActivityAnswerSchema },
  { method: 'POST', path: MESSAGE_CALLS.list, owner: 'built', server: true, shape: paged },
  { method: 'POST', path: MESSAGE_CALLS.read, owner: 'built', server: true, body: () => ({ ids: [1] }) },
  { method: 'GET', path: TEMPLATE_CALLS.policy, owner: 'old-calls', server: false, query: { current: '1', pageSize: '10' }, shape: policyListSchema },
  { method: 'GET', path: TEMPLATE_CALLS.qualityInspection, owner: 'old-calls', server: false, shape: serviceListSchema },
  { method: 'GET', path: TEMPLATE_CALLS.theService, owner: 'old-calls', server: false, shape: serviceListSchema },
  { method: 'GET', path: TEMPLATE_CALLS.rulesPreset, owner: 'old-calls', server: false, shape: serviceListSchema },
  { method: 'GET', path: TEMPLATE_CALLS.popular, owner: 'old-calls', server: false, query: { type: 'text' }, shape: popularListSchema },
  { method: 'POST', path: TEMPLATE_CALLS.chat, owner: 'old-calls', server: false, shape: chatListSchema },
  {
    method: 'POST',
    path: '/api/channel-form/submit',
    owner: 'forms',
    server: true,
    // An activity is created once: each call names a new one.
    body: () => ({
      form: 'step',
      activityName: `Spring${String((submittedActivities += 1))}`,
      channelType: 'app',
      promotionStart: '2026-03-01',
      promotionEnd: '2026-03-31',
      promoteLink: 'https://example.com/spring',
      advertisingSource: 'sohu',
      advertisingMedia: 'cpc',
      keyword: ['toutiao'],
      pushNotify: true,
      advertisingContent: 'Oxygen sessions this spring.',
    }),
  },
  { method: 'GET', path: '/api/profile/basic', owner: 'approval', server: true },
  { method: 'GET', path: '/api/operation/log', owner: 'approval', server: true },
  { method: 'POST', path: '/api/public-opinion-analysis', owner: 'analysis', server: true, body: () => ({ quota: 'visitors' }) },
  { method: 'POST', path: '/api/content-period-analysis', owner: 'analysis', server: true },
  { method: 'GET', path: '/api/content-publish', owner: 'analysis', server: true },
  { method: 'GET', path: '/api/popular-author/list', owner: 'analysis', server: true },
  { method: 'POST', path: '/api/data-chain-growth', owner: 'analysis', server: true, body: () => ({ quota: 'retentionTrends' }) },
  { method: 'POST', path: '/api/data-overview', owner: 'analysis', server: true },
  { method: 'GET', path: '/api/content-data', owner: 'analysis', server: true },
];
