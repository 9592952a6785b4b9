import { REPORT_MAX_READINGS, type ReportSettings, type SessionReading, type SessionReport } from '../../src/domain/sessionReport';
import { recordOf } from '../alarms/store';
import type { AppContext } from '../context';
import { notFound } from '../http/envelope';
import { deviceScope, type Viewer } from '../scope/service';
import { orderById, orderRecord } from './booking';

/**
 * `GET /api/v1/orders/:id/report`: the order's session report (src/domain/sessionReport.ts; docs/orders.md,
 * "The session report"). The session is the device's time from the booking's use to its finish (or now
 * while it runs); its readings are the raw state records of that span, at most REPORT_MAX_READINGS, its
 * commands those sent to the device in it, and its alarms those of the device raised in it. An order of a device out of the viewer's scope is 40400,
 * like one that does not exist.
 */

type ReadingRow = {
  time: number;
  rcp: number | null;
  sp: number | null;
  rcpi02: number | null;
  rct: number | null;
  rcrh: number | null;
  hm_hr: number | null;
  hm_sp02: number | null;
  hm_bp: string | null;
  st: number | null;
  ss: string | null;
  sl: number | null;
  sa: number | null;
};

const num = (value: number | string | null): number | null => (value === null ? null : Number(value));

const reading = (row: ReadingRow): SessionReading => ({
  Time: Number(row.time),
  RCP: num(row.rcp),
  SP: num(row.sp),
  RCPi02: num(row.rcpi02),
  RCT: num(row.rct),
  RCRH: num(row.rcrh),
  HmHR: num(row.hm_hr),
  HmSP02: num(row.hm_sp02),
  HmBP: row.hm_bp,
});

const settings = (row: ReadingRow): ReportSettings => ({ SP: num(row.sp), ST: num(row.st), SS: row.ss, SL: num(row.sl), SA: num(row.sa) });

export const sessionReport = async (ctx: Pick<AppContext, 'db' | 'now'>, viewer: Viewer, id: number): Promise<SessionReport> => {
  const { db } = ctx;
  const order = await orderById(db, id);
  if (order === undefined) throw notFound();
  const scope = deviceScope(db, viewer);
  const devices = db.selectFrom('devices').select(['id', 'name', 'type', 'location']).where('devices.id', '=', order.deviceId);
  const device = await (scope === undefined ? devices : devices.where('devices.id', 'in', scope)).executeTakeFirst();
  if (device === undefined) throw notFound();

  const session = order.usedAt === null ? null : { from: order.usedAt, to: order.finishedAt ?? ctx.now(), running: order.finishedAt === null };
  const rows: ReadingRow[] =
    session === null
      ? []
      : await db
          .selectFrom('state_records')
          .select(['time', 'rcp', 'sp', 'rcpi02', 'rct', 'rcrh', 'hm_hr', 'hm_sp02', 'hm_bp', 'st', 'ss', 'sl', 'sa'])
          .where('device_id', '=', order.deviceId)
          .where('time', '>=', session.from)
          .where('time', '<=', session.to)
          .orderBy('time')
          .limit(REPORT_MAX_READINGS + 1)
          .execute();
  const kept = rows.slice(0, REPORT_MAX_READINGS);
  const first = kept[0];
  const last = kept.at(-1);
  const commands =
    session === null
      ? []
      : await db
          .selectFrom('device_commands as c')
          .leftJoin('accounts as u', 'u.id', 'c.issued_by')
          .select(['c.cmd_id', 'c.type', 'c.payload', 'c.status', 'c.error', 'u.account', 'c.issued_at', 'c.answered_at'])
          .where('c.device_id', '=', order.deviceId)
          .where('c.issued_at', '>=', session.from)
          .where('c.issued_at', '<=', session.to)
          .orderBy('c.issued_at')
          .execute();
  const alarms =
    session === null
      ? []
      : await db
          .selectFrom('alarms')
          .selectAll()
          .where('device_id', '=', order.deviceId)
          .where('raised_at', '>=', session.from)
          .where('raised_at', '<=', session.to)
          .orderBy('raised_at')
          .orderBy('id')
          .execute();
  return {
    order: orderRecord(order),
    device: { Id: device.id, name: device.name, Type: Number(device.type), Location: device.location },
    session,
    settings: first === undefined || last === undefined ? null : { atStart: settings(first), atEnd: settings(last) },
    readings: kept.map(reading),
    truncated: rows.length > REPORT_MAX_READINGS,
    commands: commands.map((row) => ({
      cmdId: row.cmd_id,
      type: row.type,
      command: JSON.parse(row.payload) as unknown,
      status: row.status,
      error: row.error,
      actor: row.account,
      issuedAt: Number(row.issued_at),
      answeredAt: num(row.answered_at),
    })),
    alarms: alarms.map(recordOf),
  };
};
