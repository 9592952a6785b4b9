import { sql } from 'kysely';
import type { Locale } from '../../src/domain/locales';
import {
  growthPercent,
  LATEST_ACTIVITY_COUNT,
  NOT_ACTIVITY_PREFIX,
  projectDescription,
  USER_CENTER_MAX,
  VISIT_NAMES,
  VISITS_WINDOW_MS,
  type LatestActivityAnswer,
  type MyProjectsAnswer,
  type MyTeamsAnswer,
  type VisitsAnswer,
} from '../../src/domain/userCenter';
import { activityOf } from '../../src/resources/audit-log/calls';
import type { AppContext } from '../context';
import { deviceScope, subtreeQuery, type Viewer } from '../scope/service';

/**
 * The old console's user centre lists on the fleet's data (src/domain/userCenter.ts, docs/product.md,
 * "The old console's mocked calls"), each within the caller's scope.
 */

type Ctx = Pick<AppContext, 'db' | 'now'>;

const countWhen = (column: 'o.used_at' | 'o.time', from: number, to: number) =>
  sql<number>`count(case when ${sql.ref(column)} >= ${from} and ${sql.ref(column)} < ${to} then 1 end)`;

/** Sessions run (a booking used) and bookings made in the caller's chambers over the last week, against the week before. */
export const visits = async (ctx: Ctx, viewer: Viewer, locale: Locale): Promise<VisitsAnswer> => {
  const to = ctx.now() + 1;
  const middle = to - VISITS_WINDOW_MS;
  const from = middle - VISITS_WINDOW_MS;
  const scope = deviceScope(ctx.db, viewer);
  const base = ctx.db.selectFrom('orders as o');
  const row = await (scope === undefined ? base : base.where('o.device_id', 'in', scope))
    .select([
      countWhen('o.used_at', middle, to).as('sessions'),
      countWhen('o.used_at', from, middle).as('sessionsBefore'),
      countWhen('o.time', middle, to).as('bookings'),
      countWhen('o.time', from, middle).as('bookingsBefore'),
    ])
    .executeTakeFirstOrThrow();
  const figure = (name: string, last: number, earlier: number) => ({ name, visits: Number(last), growth: growthPercent(Number(last), Number(earlier)) });
  return [figure(VISIT_NAMES[locale].sessions, row.sessions, row.sessionsBefore), figure(VISIT_NAMES[locale].bookings, row.bookings, row.bookingsBefore)];
};

/** The caller's chambers in Id order, each with the accounts of the caller's subtree that manage it. */
export const myProjects = async (ctx: Ctx, viewer: Viewer): Promise<MyProjectsAnswer> => {
  const scope = deviceScope(ctx.db, viewer);
  const base = ctx.db.selectFrom('devices').select(['devices.id', 'devices.name', 'devices.location']).where('devices.removed_at', 'is', null);
  const devices = await (scope === undefined ? base : base.where('devices.id', 'in', scope)).orderBy('devices.id').limit(USER_CENTER_MAX).execute();
  if (devices.length === 0) return [];
  const managers = await ctx.db
    .selectFrom('account_devices')
    .innerJoin('accounts', 'accounts.id', 'account_devices.account_id')
    .select(['account_devices.device_id', 'accounts.account', 'accounts.avatar'])
    .where(
      'account_devices.device_id',
      'in',
      devices.map((device) => device.id),
    )
    .where('accounts.id', 'in', subtreeQuery(ctx.db, viewer.id))
    .orderBy('accounts.account')
    .execute();
  return devices.map((device, index) => {
    const contributors = managers.filter((row) => row.device_id === device.id).map((row) => ({ name: row.account, email: '', avatar: row.avatar }));
    return { id: index + 1, name: device.name, description: projectDescription(device.id, device.location), peopleNumber: contributors.length, contributors };
  });
};

/** The accounts directly below the caller, each with the size of its subtree (itself included). */
export const myTeams = async (ctx: Ctx, viewer: Viewer): Promise<MyTeamsAnswer> => {
  const rows = await ctx.db
    .withRecursive('team(root, id)', (qb) =>
      qb
        .selectFrom('accounts')
        .select(['accounts.id as root', 'accounts.id as id'])
        .where('accounts.sub_id', '=', viewer.id)
        // union, not union all: even a corrupted tree with a cycle ends.
        .union(qb.selectFrom('accounts as below').innerJoin('team', 'team.id', 'below.sub_id').select(['team.root as root', 'below.id as id'])),
    )
    .selectFrom('team')
    .innerJoin('accounts', 'accounts.id', 'team.root')
    .select(['accounts.id', 'accounts.account', 'accounts.avatar', sql<number>`count(*)`.as('people')])
    .groupBy(['accounts.id', 'accounts.account', 'accounts.avatar'])
    .orderBy('accounts.account')
    .limit(USER_CENTER_MAX)
    .execute();
  return rows.map((row) => ({ id: row.id, avatar: row.avatar, name: row.account, peopleNumber: Number(row.people) }));
};

/** The caller's own latest audited changes (not its sign-ins and sign-outs), newest first. */
export const latestActivity = async (ctx: Ctx, viewer: Viewer, locale: Locale): Promise<LatestActivityAnswer> => {
  const rows = await ctx.db
    .selectFrom('audit_log')
    .select(['id', 'action', 'target_type', 'target_id'])
    .where('actor_id', '=', viewer.id)
    .where('action', 'not like', `${NOT_ACTIVITY_PREFIX}%`)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(LATEST_ACTIVITY_COUNT)
    .execute();
  return rows.map((row) => activityOf({ id: row.id, action: row.action, targetType: row.target_type, targetId: row.target_id }, locale));
};
