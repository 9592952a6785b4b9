import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { UNSUMMARISED_SESSION } from '../db/statsSummaries';
import { deviceScope, type Viewer } from '../scope/service';
import { addTo, wholeHourOffset, type Piece } from './ranges';
import { DAY_MS } from '../../src/domain/time';
import { dayOf, overlappingSessions, sessionMsWithin } from './scope';
import { chamberDayTotals, fleetHoursByLocalDay } from './summaries';

/** Session time is summed per chamber, or per local day (offset `tz`) of the session's start. */
export type SessionKey = { by: 'chamber' } | { by: 'day'; tz: number };

/**
 * Session time within [from, end) (end at most now), ms, per key: what overlappingSessions and
 * sessionMsWithin count over the rows. For the whole fleet, the finished sessions that start on a UTC day
 * d with from <= d and that the summary holds (ended by the end of day d + 1, server/db/statsSummaries.ts)
 * lie wholly inside the range when d + 2 days <= end: those days come from the summary unclipped; the
 * starts before them (from a day before `from`), after them, and the sessions the summary leaves out
 * (running, lost, longer) come from the rows, clipped as before.
 */
export const sessionTime = async (db: Kysely<DB>, viewer: Viewer, from: number, end: number, key: SessionKey): Promise<Map<string | number, number>> => {
  const sums = new Map<string | number, number>();
  if (end <= from) return sums;
  const keyOf = key.by === 'chamber' ? sql<string | number>`o.device_id` : dayOf('o.used_at', key.tz);
  const asKey = (value: string | number) => (key.by === 'chamber' ? String(value) : Number(value));
  const fromRows = async (started?: Piece, unsummarisedOnly = false) => {
    const sessions = overlappingSessions(db, viewer, from, end, started);
    const rows = await (unsummarisedOnly ? sessions.where(sql.raw<boolean>(UNSUMMARISED_SESSION)) : sessions)
      .select([keyOf.as('key'), sql<number>`sum(${sessionMsWithin(from, end)})`.as('ms')])
      .groupBy(keyOf)
      .execute();
    for (const row of rows) addTo(sums, asKey(row.key), Number(row.ms));
  };
  const first = Math.ceil(from / DAY_MS);
  const last = Math.floor(end / DAY_MS) - 1;
  const summarised = deviceScope(db, viewer) === undefined && last > first && (key.by === 'chamber' || wholeHourOffset(key.tz));
  if (!summarised) {
    await fromRows();
    return sums;
  }
  const [summary] = await Promise.all([
    key.by === 'chamber' ? chamberDayTotals(db, 'session_ms', first, last) : fleetHoursByLocalDay(db, 'sessions', 'total', first * 24, last * 24, key.tz),
    fromRows([from - DAY_MS, first * DAY_MS]),
    fromRows([last * DAY_MS, end]),
    fromRows([first * DAY_MS, last * DAY_MS], true),
  ]);
  for (const [at, ms] of summary) addTo(sums, at, ms);
  return sums;
};
