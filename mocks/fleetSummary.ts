import { http, HttpResponse } from 'msw';
import {
  ALARM_FIGURE_FILTERS,
  CHAMBER_FIGURE_FILTERS,
  FLEET_SUMMARY_PATH,
  fleetSummaryQuerySchema,
  localDay,
  orderFigureFilters,
  utilisationByHour,
  type FleetSummary,
  type SessionSpan,
} from '../src/domain/fleetSummary';
import { applyListQuery, MAX_PAGE_SIZE, type ListBody } from '../src/resources/query';
import { alarmsConfig } from '../src/resources/alarms/config';
import { devicesConfig } from '../src/resources/devices/config';
import { ordersConfig } from '../src/resources/orders/config';
import type { WireRecord } from '../src/resources/model';
import { CODES } from '../src/domain/envelope';
import { restFail } from './envelope';
import { badInputMessage, refusalOf, type AccessCheck } from './access';
import type { MockScope } from './scope';

const DAY_MS = 86_400_000;

/**
 * `GET <restBase>/fleet/summary` over the seeded tables, with the server's rules (server/fleet/summary.ts):
 * each figure is the number of records its list filter finds, with the shared list query, taken at `now`
 * (the unit tests' mocks stand at their fixed epoch, so their "today" is the seeded one). Every figure
 * counts the caller's scope only, as its lists do.
 */
export const fleetSummaryHandlers = (restBase: string, tables: ReadonlyMap<string, WireRecord[]>, check: AccessCheck, scope: MockScope, now: () => number) => {
  const table = (name: string) => tables.get(name) ?? [];
  type Counted = typeof devicesConfig | typeof ordersConfig | typeof alarmsConfig;
  const found = (request: Request, config: Counted, filter: ListBody['filter']) =>
    applyListQuery(config, scope.visible(request, config.name, table(config.name)), { current: 1, pageSize: MAX_PAGE_SIZE, filter }).list;

  /** Bookings used since a day before the day, as the server reads them: finished today, or still run by their chamber. */
  const sessionsOfDay = (request: Request, day: { from: number }, now: number): SessionSpan[] =>
    found(request, ordersConfig, { UseTime: { gte: day.from - DAY_MS, lte: now } }).flatMap((order) => {
      const device = table(devicesConfig.name).find((record) => record.Id === order.Id);
      const end = typeof order.FinishTime === 'number' ? order.FinishTime : undefined;
      const running = end === undefined && device?.OrderNum === order.OrderNum;
      return (end !== undefined && end >= day.from) || running ? [{ start: Number(order.UseTime), end }] : [];
    });

  return [
    http.get(`${restBase}/${FLEET_SUMMARY_PATH}`, ({ request }) => {
      const refusal = refusalOf(request, check, { resource: 'workplace', action: 'list' });
      if (refusal) return refusal === 'notSignedIn' ? restFail(CODES.notSignedIn, 'not logged in') : restFail(CODES.forbidden, 'forbidden');
      const query = fleetSummaryQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
      if (!query.success) return restFail(CODES.badInput, badInputMessage(query.error));
      const at = now();
      const day = localDay(at, query.data.tz);
      const orderFilters = orderFigureFilters(day);
      const counted = (config: Counted, filter: ListBody['filter']) => found(request, config, filter).length;
      const chambers = {
        total: scope.visible(request, devicesConfig.name, table(devicesConfig.name)).length,
        ...(Object.fromEntries(
          Object.entries(CHAMBER_FIGURE_FILTERS).map(([figure, filter]) => [figure, counted(devicesConfig, filter)]),
        ) as Record<keyof typeof CHAMBER_FIGURE_FILTERS, number>),
      };
      const summary: FleetSummary = {
        ...day,
        at,
        chambers,
        orders: {
          bookings: counted(ordersConfig, orderFilters.bookings),
          used: counted(ordersConfig, orderFilters.used),
          expired: counted(ordersConfig, orderFilters.expired),
          sessions: counted(ordersConfig, orderFilters.sessions),
        },
        alarms: {
          high: counted(alarmsConfig, ALARM_FIGURE_FILTERS.high),
          medium: counted(alarmsConfig, ALARM_FIGURE_FILTERS.medium),
          low: counted(alarmsConfig, ALARM_FIGURE_FILTERS.low),
        },
        utilisation: utilisationByHour(sessionsOfDay(request, day, at), day, at, chambers.total),
      };
      return HttpResponse.json(summary);
    }),
  ];
};
