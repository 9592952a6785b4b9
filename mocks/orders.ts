import { http, HttpResponse } from 'msw';
import type { AlarmRecord } from '../src/domain/alarms/record';
import { REPORT_READINGS, type SessionReading, type SessionReport } from '../src/domain/sessionReport';
import { seededRandomFor } from '../src/domain/random';
import type { WireRecord } from '../src/resources/model';
import {
  BOOKING_AHEAD_DAYS,
  BOOKING_PAST_TOLERANCE_MINUTES,
  bookingBodySchema,
  ORDERS_PATH,
  orderStateOf,
} from '../src/resources/orders/requests';
import { readJson, refusalOf, type AccessCheck } from './access';
import type { CommandLog } from './deviceCommands';
import { serverBadInput } from './issueCommands';
import { seededReading } from './readings';
import type { MockScope } from './scope';

const MINUTE = 60_000;
/** The server's default ORDER_EXPIRY_MINUTES: a booking's window. */
const WINDOW = 30 * MINUTE;
/** The mocked chambers report every 30 s in a report (the real ones about every second). */
const REPORT_STEP = 30_000;
const SESSION_MINUTES = 60;

const answer = (status: number, message: string, code: number) => HttpResponse.json({ message, code }, { status });

/**
 * The seeded orders in every state of docs/orders.md in turn (open, running, finished, expired, cancelled),
 * their times consistent: a session starts at its booking time and lasts an hour.
 */
export const settleSeededOrders = (orders: WireRecord[]): void => {
  orders.forEach((order, index) => {
    const setT = Number(order.SetT ?? order.Time);
    const state = (['open', 'running', 'finished', 'expired', 'cancelled'] as const)[index % 5];
    Object.assign(order, {
      SetT: setT,
      IsUsed: state === 'running' || state === 'finished',
      IsPass: state === 'expired',
      UseTime: state === 'running' || state === 'finished' ? setT : null,
      FinishTime: state === 'finished' ? setT + SESSION_MINUTES * MINUTE : null,
      CancelTime: state === 'cancelled' ? Number(order.Time) + MINUTE : null,
    });
  });
};

const dayStamp = (time: number) => new Date(time).toISOString().slice(0, 10).replaceAll('-', '');

/** A session's readings as a mocked chamber reports them: pressure rising to its set point over ten minutes. */
const sessionReadings = (order: WireRecord, from: number, to: number): SessionReading[] => {
  const random = seededRandomFor(`report:${String(order.OrderNum)}`);
  const readings: SessionReading[] = [];
  for (let time = from; time <= to; time += REPORT_STEP) {
    const reading = seededReading(readings.length, random, time);
    const rise = Math.min(1, (time - from) / (10 * MINUTE));
    const setPoint = reading.SP ?? 1.3;
    const row = { ...reading, RCP: Math.round((1 + (setPoint - 1) * rise) * 100) / 100, SP: setPoint };
    readings.push(Object.fromEntries([['Time', time], ...REPORT_READINGS.map((name) => [name, row[name] ?? null])]) as SessionReading);
  }
  return readings;
};

/**
 * Booking, cancelling and the session report under the REST prefix, with the server's rules (docs/orders.md):
 * the shared body schema, the booking time's limits, a chamber's overlapping bookings refused naming the
 * other one, only an unused booking cancelled; messages in en-US, as the server words them. A device out
 * of the caller's scope, and its bookings, are not found.
 */
export const orderHandlers = (restBase: string, tables: Map<string, WireRecord[]>, check: AccessCheck, scope: MockScope, commands: CommandLog) => {
  const orders = tables.get('orders') ?? [];
  const devices = tables.get('devices') ?? [];
  /** The chamber's alarms raised in [from, to], oldest first, as the server answers them. */
  const alarmsRaised = (deviceId: unknown, from: number, to: number) =>
    ((tables.get('alarms') ?? []) as unknown as AlarmRecord[])
      .filter((alarm) => alarm.deviceId === deviceId && alarm.raisedAt >= from && alarm.raisedAt <= to)
      .sort((a, b) => a.raisedAt - b.raisedAt || a.id - b.id);
  const url = `${restBase}/${ORDERS_PATH}`;
  const refuse = (request: Request, action: string) => {
    const refusal = refusalOf(request, check, { resource: 'orders', action });
    if (refusal === 'notSignedIn') return answer(401, 'not logged in', 50008);
    return refusal === 'forbidden' ? answer(403, 'access denied', 40300) : undefined;
  };
  const find = (request: Request, id: unknown) => orders.find((order) => String(order.id) === String(id) && scope.seesDevice(request, order.Id));
  const notFound = () => answer(404, 'not found', 40400);

  return [
    http.post(url, async ({ request }) => {
      const refused = refuse(request, 'create');
      if (refused) return refused;
      const body = bookingBodySchema.safeParse(await readJson(request));
      if (!body.success) return answer(400, serverBadInput(body.error), 40000);
      const { Id, SetT, OpenId } = body.data;
      const now = Date.now();
      if (SetT < now - BOOKING_PAST_TOLERANCE_MINUTES * MINUTE) return answer(400, 'the booking time has passed (SetT)', 40000);
      if (SetT > now + BOOKING_AHEAD_DAYS * 24 * 60 * MINUTE) {
        return answer(400, `the booking time may be at most ${BOOKING_AHEAD_DAYS} days ahead (SetT)`, 40000);
      }
      if (!devices.some((device) => device.Id === Id) || !scope.seesDevice(request, Id)) return notFound();
      const conflict = orders.find((order) => {
        if (order.Id !== Id) return false;
        const state = orderStateOf(order);
        return (state === 'open' && Math.abs(Number(order.SetT) - SetT) <= WINDOW) || (state === 'running' && SetT <= now + WINDOW);
      });
      if (conflict) return answer(400, `the booking time overlaps booking ${String(conflict.OrderNum)} of device ${Id} (SetT)`, 40000);
      const day = dayStamp(now);
      const sequence = orders.filter((order) => String(order.OrderNum).startsWith(day)).length + 1;
      const record: WireRecord = {
        id: Math.max(0, ...orders.map((order) => Number(order.id))) + 1,
        OrderNum: `${day}${String(sequence).padStart(4, '0')}`,
        Id,
        Time: now,
        SetT,
        OC: body.data.OC ?? String(100_000 + Math.floor(Math.random() * 900_000)),
        OpenId,
        IsUsed: false,
        IsPass: false,
        UseTime: null,
        FinishTime: null,
        CancelTime: null,
      };
      orders.unshift(record);
      return HttpResponse.json(record, { status: 201 });
    }),
    http.post(`${url}/:id/cancel`, ({ request, params }) => {
      const refused = refuse(request, 'cancel');
      if (refused) return refused;
      const order = find(request, params.id);
      if (!order) return notFound();
      if (orderStateOf(order) !== 'open') {
        return answer(400, `booking ${String(order.OrderNum)} has been used, has expired or was cancelled: only a booking not yet used can be cancelled`, 40000);
      }
      order.CancelTime = Date.now();
      return HttpResponse.json(order);
    }),
    http.get(`${url}/:id/report`, ({ request, params }) => {
      const refused = refuse(request, 'show');
      if (refused) return refused;
      const order = find(request, params.id);
      const device = devices.find((candidate) => candidate.Id === order?.Id);
      if (!order || !device) return notFound();
      const from = order.UseTime === null ? null : Number(order.UseTime);
      const to = order.FinishTime === null ? Math.min(Date.now(), Number(from) + SESSION_MINUTES * MINUTE) : Number(order.FinishTime);
      const readings = from === null ? [] : sessionReadings(order, from, to);
      const [first] = readings;
      const settingsOf = () => ({ SP: first?.SP ?? null, ST: SESSION_MINUTES, SS: 'M', SL: 1, SA: 0 });
      commands.settle();
      const report: SessionReport = {
        order: {
          id: Number(order.id),
          OrderNum: String(order.OrderNum),
          Id: String(order.Id),
          Time: Number(order.Time),
          SetT: order.SetT === null ? null : Number(order.SetT),
          OC: (order.OC as string | null) ?? null,
          OpenId: (order.OpenId as string | null) ?? null,
          IsUsed: order.IsUsed === true,
          IsPass: order.IsPass === true,
          UseTime: from,
          FinishTime: order.FinishTime === null ? null : Number(order.FinishTime),
          CancelTime: order.CancelTime === null ? null : Number(order.CancelTime),
        },
        device: { Id: String(device.Id), name: String(device.name), Type: Number(device.Type), Location: String(device.Location) },
        session: from === null ? null : { from, to, running: order.FinishTime === null },
        settings: first === undefined ? null : { atStart: settingsOf(), atEnd: settingsOf() },
        readings,
        truncated: false,
        commands:
          from === null
            ? []
            : commands.records
                .filter((command) => command.Id === order.Id && Number(command.issuedAt) >= from && Number(command.issuedAt) <= to)
                .map((command) => ({
                  cmdId: String(command.id),
                  type: String(command.type),
                  command: command.command,
                  status: String(command.status),
                  error: (command.error as string | null) ?? null,
                  actor: (command.actor as string | null) ?? null,
                  issuedAt: Number(command.issuedAt),
                  answeredAt: command.answeredAt === null ? null : Number(command.answeredAt),
                })),
        alarms: from === null ? [] : alarmsRaised(order.Id, from, to),
      };
      return HttpResponse.json(report);
    }),
  ];
};
