import { http } from 'msw';
import { subtreeOf } from '../src/domain/scope/hierarchy';
import {
  growthPercent,
  LATEST_ACTIVITY_COUNT,
  NOT_ACTIVITY_PREFIX,
  projectDescription,
  USER_CENTER_CALLS,
  USER_CENTER_MAX,
  VISIT_FIGURES,
  VISIT_NAMES,
  VISITS_WINDOW_MS,
  type LatestActivityAnswer,
  type MyProjectsAnswer,
  type MyTeamsAnswer,
  type VisitsAnswer,
} from '../src/domain/userCenter';
import { activityOf } from '../src/resources/audit-log/calls';
import type { WireRecord } from '../src/resources/model';
import type { AccessCheck } from './access';
import type { MockCredentials } from './auth';
import { ok } from './envelope';
import { languageOf } from './messages';
import type { MockScope } from './scope';
import { upstreamRefusal } from './upstream';

type Tables = ReadonlyMap<string, WireRecord[]>;

const within = (value: unknown, from: number, to: number) => typeof value === 'number' && value >= from && value < to;

/**
 * The old console's user centre calls (src/domain/userCenter.ts) over the mocks' tables, each within the
 * caller's scope as the server answers them (server/user-center/): the caller's sessions and bookings of
 * the last week against the week before, its chambers with the accounts of its subtree that manage them,
 * the accounts directly below it, and its own latest audited changes.
 */
export const userCenterHandlers = (base: string, tables: Tables, check: AccessCheck, scope: MockScope, credentials: MockCredentials, now: () => number) => {
  const table = (name: string) => tables.get(name) ?? [];
  const guarded = (path: string, answer: (request: Request, viewer: string) => unknown) =>
    http.post(`${base}${path}`, ({ request }) => {
      const refused = upstreamRefusal(request, check, 'user-info', 'list');
      if (refused) return refused;
      return ok(answer(request, scope.viewerOf(request)?.id ?? ''));
    });

  const visits = (request: Request): VisitsAnswer => {
    const orders = scope.visible(request, 'orders', table('orders'));
    // [middle, to) and [from, middle), up to and including now, as the server counts them.
    const to = now() + 1;
    const middle = to - VISITS_WINDOW_MS;
    const counted = (field: string, from: number, until: number) => orders.filter((order) => within(order[field], from, until)).length;
    const field = { sessions: 'UseTime', bookings: 'Time' } as const;
    return VISIT_FIGURES.map((figure) => {
      const last = counted(field[figure], middle, to);
      const earlier = counted(field[figure], middle - VISITS_WINDOW_MS, middle);
      return { name: VISIT_NAMES[languageOf(request)][figure], visits: last, growth: growthPercent(last, earlier) };
    });
  };

  const myProjects = (request: Request, viewer: string): MyProjectsAnswer => {
    const hierarchy = scope.hierarchy();
    const subtree = [...subtreeOf(hierarchy, viewer)].sort();
    return scope
      .visible(request, 'devices', table('devices'))
      .sort((a, b) => String(a.Id).localeCompare(String(b.Id)))
      .slice(0, USER_CENTER_MAX)
      .map((device, index) => {
        const contributors = subtree
          .filter((account) => hierarchy.assigned.get(account)?.has(String(device.Id)))
          .map((account) => ({ name: account, email: '', avatar: '' }));
        return { id: index + 1, name: String(device.name ?? ''), description: projectDescription(String(device.Id), String(device.Location ?? '')), peopleNumber: contributors.length, contributors };
      });
  };

  const myTeams = (viewer: string): MyTeamsAnswer => {
    const hierarchy = scope.hierarchy();
    const accounts = table('accounts').map((record) => String(record.Account));
    return [...(hierarchy.children.get(viewer) ?? [])]
      .sort()
      .slice(0, USER_CENTER_MAX)
      .map((account) => ({ id: credentials.get(account)?.id ?? accounts.indexOf(account) + 1, avatar: '', name: account, peopleNumber: subtreeOf(hierarchy, account).size }));
  };

  const latestActivity = (request: Request, viewer: string): LatestActivityAnswer =>
    table('audit-log')
      .filter((entry) => entry.actor === viewer && !String(entry.action).startsWith(NOT_ACTIVITY_PREFIX))
      .sort((a, b) => Number(b.at) - Number(a.at) || Number(b.id) - Number(a.id))
      .slice(0, LATEST_ACTIVITY_COUNT)
      .map((entry) => activityOf({ id: Number(entry.id), action: String(entry.action), targetType: String(entry.targetType), targetId: String(entry.targetId) }, languageOf(request)));

  return [
    guarded(USER_CENTER_CALLS.visits, visits),
    guarded(USER_CENTER_CALLS.myProjects, myProjects),
    guarded(USER_CENTER_CALLS.myTeams, (_request, viewer) => myTeams(viewer)),
    guarded(USER_CENTER_CALLS.latestActivity, latestActivity),
  ];
};
