import {
  ALARM_FIGURE_FILTERS,
  CHAMBER_FIGURE_FILTERS,
  orderFigureFilters,
  type AlarmFigure,
  type ChamberFigure,
  type FleetSummary,
  type OrderFigure,
} from '../../domain/fleetSummary';

/**
 * Where each workplace figure leads: the list that counts the same records, already filtered (the
 * figure's filter of src/domain/fleetSummary.ts in react-admin's URL, `?filter={json}`). Scalar filters
 * are also shown as filter inputs (`displayedFilters`), so the operator sees what narrows the list.
 */

type WireFilter = Readonly<Record<string, unknown>>;

const isRange = (value: unknown): value is { gte?: number; lte?: number } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A wire filter as react-admin's filter form holds it: a range's bounds as `<source>_gte` and `<source>_lte`. */
const formFilter = (filter: WireFilter): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(filter).flatMap(([source, value]) =>
      isRange(value) ? Object.entries(value).map(([bound, at]) => [`${source}_${bound}`, at]) : [[source, value]],
    ),
  );

const listUrl = (path: string, filter: WireFilter): string => {
  const form = formFilter(filter);
  const displayed = Object.fromEntries(Object.entries(form).filter(([, value]) => !Array.isArray(value)).map(([source]) => [source, true]));
  const query = new URLSearchParams({ filter: JSON.stringify(form), displayedFilters: JSON.stringify(displayed) });
  return `${path}?${query.toString()}`;
};

const DEVICE_LIST = '/list/device-manager';
const ORDER_LIST = '/other/order-list';
const ALARM_LIST = '/alarms';

export const chamberFigureLink = (figure: Exclude<ChamberFigure, 'total'>): string => listUrl(DEVICE_LIST, CHAMBER_FIGURE_FILTERS[figure]);

export const orderFigureLink = (figure: OrderFigure, day: Pick<FleetSummary, 'from' | 'to'>): string => listUrl(ORDER_LIST, orderFigureFilters(day)[figure]);

export const alarmFigureLink = (figure: AlarmFigure): string => listUrl(ALARM_LIST, ALARM_FIGURE_FILTERS[figure]);
