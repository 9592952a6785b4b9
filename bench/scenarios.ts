import { seededRandom } from '../src/domain/random';
import { ordersConfig } from '../src/resources/orders/config';
import { stateRecordsConfig } from '../src/resources/state-records/config';
import { devicesConfig } from '../src/resources/devices/config';
import type { ListBody } from '../src/resources/query';
import type { ResourceConfig } from '../src/resources/types';
import { listPath } from '../server/lists/route';
import { DEVICES, MINUTE, ORDERS_PER_DEVICE, READINGS_PER_DEVICE, T0, deviceId, inScope } from './seed';

/**
 * What the benchmark asks: list bodies as the console sends them (src/providers/upstream.ts: react-admin's
 * `Time_gte` / `Time_lte` inputs become `Time: { gte, lte }` on the wire, toWireFilter; getOne/getMany ask
 * with an Id list), each with the total the seeded store must answer, so a sample of every scenario is
 * checked before it is measured.
 */

interface Call {
  body: ListBody;
  /** The total the server must answer for this body. */
  total: number;
}

export interface Scenario {
  name: string;
  description: string;
  /** API_PREFIX + the list path of the resource's configuration (as the console and the server take it). */
  path: string;
  /** Counted against the target (≥ 5,000 req/s, p99 ≤ 50 ms); others are reported for information. */
  target: boolean;
  next: () => Call;
}

const SCOPED = Array.from({ length: DEVICES }, (_, index) => index).filter(inScope);
const PAGE_SIZES = [10, 25] as const;

/** The server's default API_PREFIX (bench/seed.ts's benchEnv leaves it unset). */
export const API_PREFIX = '/upstream';

const endpoint = (config: ResourceConfig): string => `${API_PREFIX}${listPath(config)}`;

/** The console mostly shows the first pages; deeper pages are rarer. */
const pageOf = (random: () => number, total: number, pageSize: number): number => {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return 1 + Math.floor(random() * Math.min(pages, 10));
};

const pick = <T>(random: () => number, items: readonly T[]): T => {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
};

const integer = (random: () => number, min: number, max: number): number => min + Math.floor(random() * (max - min + 1));

/** One device in scope as the console filters by it: the reference input's value, or getMany's Id list. */
const deviceFilter = (random: () => number, index: number): string | string[] =>
  random() < 0.5 ? deviceId(index) : [deviceId(index)];

/** State records of one device in a time range (30 s inside the minute marks, as typed in the console), newest first. */
export const stateRecordsScenario = (seed: number): Scenario => {
  const random = seededRandom(seed);
  return {
    name: 'state-records',
    description: 'get_OCState: one device in scope + Time range (60–600 of its 1,000 readings), Time DESC, pageSize 10|25',
    path: endpoint(stateRecordsConfig),
    target: true,
    next: () => {
      const span = integer(random, 60, 600);
      const from = integer(random, 0, READINGS_PER_DEVICE - span);
      const pageSize = pick(random, PAGE_SIZES);
      return {
        body: {
          current: pageOf(random, span, pageSize),
          pageSize,
          sort: { field: 'Time', order: 'DESC' },
          filter: {
            Id: deviceFilter(random, pick(random, SCOPED)),
            Time: { gte: T0 + from * MINUTE - 30_000, lte: T0 + (from + span - 1) * MINUTE + 30_000 },
          },
        },
        total: span,
      };
    },
  };
};

/** The order times of a device, as seed.ts places them: order n on device (n·7919) mod DEVICES at T0 + n·step. */
const ORDER_STEP = Math.floor((READINGS_PER_DEVICE * MINUTE) / (DEVICES * ORDERS_PER_DEVICE));
const orderTimes = (index: number): number[] => {
  const times: number[] = [];
  for (let n = 0; n < DEVICES * ORDERS_PER_DEVICE; n += 1) if ((n * 7919) % DEVICES === index) times.push(T0 + n * ORDER_STEP);
  return times;
};
const ORDER_TIMES = new Map(SCOPED.map((index) => [index, orderTimes(index)]));

/** Orders of one device in a time range, newest first. */
export const ordersScenario = (seed: number): Scenario => {
  const random = seededRandom(seed);
  const span = READINGS_PER_DEVICE * MINUTE;
  return {
    name: 'orders',
    description: 'get_Records: one device in scope + Time range (25–100 % of the span), Time DESC, pageSize 10|25',
    path: endpoint(ordersConfig),
    target: true,
    next: () => {
      const index = pick(random, SCOPED);
      const width = Math.floor(span * (0.25 + random() * 0.75));
      const gte = T0 + Math.floor(random() * (span - width));
      const lte = gte + width;
      const total = (ORDER_TIMES.get(index) ?? []).filter((time) => time >= gte && time <= lte).length;
      const pageSize = pick(random, PAGE_SIZES);
      return {
        body: {
          current: pageOf(random, total, pageSize),
          pageSize,
          sort: { field: 'Time', order: 'DESC' },
          filter: { Id: deviceFilter(random, index), Time: { gte, lte } },
        },
        total,
      };
    },
  };
};

/** The device list of the administrator (its 300 devices), sorted by a column the console offers. */
export const devicesScenario = (seed: number): Scenario => {
  const random = seededRandom(seed);
  return {
    name: 'devices',
    description: 'get_OCProperty: the 300 devices in scope, sorted by Id|name|UpdateTime, pageSize 10|25',
    path: endpoint(devicesConfig),
    target: true,
    next: () => {
      const pageSize = pick(random, PAGE_SIZES);
      return {
        body: {
          current: pageOf(random, SCOPED.length, pageSize),
          pageSize,
          sort: { field: pick(random, ['Id', 'name', 'UpdateTime']), order: pick(random, ['ASC', 'DESC'] as const) },
          filter: {},
        },
        total: SCOPED.length,
      };
    },
  };
};

/** The three lists above in turn, as a console session moves between them. */
export const mixedScenario = (seed: number): Scenario[] => [stateRecordsScenario(seed), ordersScenario(seed + 1), devicesScenario(seed + 2)];

/**
 * For information, outside the target: the state-record list opened without a filter (the console's
 * default view): every reading of the 300 devices, newest first. Its total counts 300,000 index entries.
 */
export const unfilteredScenario = (seed: number): Scenario => {
  const random = seededRandom(seed);
  return {
    name: 'state-records-unfiltered',
    description: 'get_OCState without a filter (all 300,000 readings in scope), Time DESC, pageSize 10|25, pages 1–3',
    path: endpoint(stateRecordsConfig),
    target: false,
    next: () => ({
      body: { current: integer(random, 1, 3), pageSize: pick(random, PAGE_SIZES), sort: { field: 'Time', order: 'DESC' } },
      // Counted no further than the log counts (docs/server-lists.md, "Totals of the readings log").
      total: Math.min(SCOPED.length * READINGS_PER_DEVICE, (stateRecordsConfig.countUpTo ?? Infinity) + 1),
    }),
  };
};

/** Readings in the store for the readings-10m scenario (bench/seed.ts topUpReadings). */
export const READINGS_AT_SCALE = 10_000_000;

/**
 * The readings log's first page without a filter for the super administrator, every reading in scope,
 * once the store holds READINGS_AT_SCALE: what a fleet of 1,000 chambers at 1 Hz stores in three hours.
 */
export const readingsAtScaleScenario = (seed: number): Scenario => {
  const random = seededRandom(seed);
  return {
    name: 'readings-10m',
    description: 'get_OCState page 1 without a filter, as the super administrator, 10,000,000 readings in scope, Time DESC, pageSize 10|25 (target: p99 <= 50 ms)',
    path: endpoint(stateRecordsConfig),
    target: false,
    next: () => ({
      body: { current: 1, pageSize: pick(random, PAGE_SIZES), sort: { field: 'Time', order: 'DESC' } },
      total: (stateRecordsConfig.countUpTo ?? 0) + 1,
    }),
  };
};
