import type { Kysely } from 'kysely';
import { VITAL_KINDS, type AlarmKind } from '../../src/domain/alarms/rules';
import type { MessageNotice } from '../../src/domain/live';
import { nextAlarmState, type AlarmInput } from '../../src/domain/alarms/states';
import { SYSTEM_ACTOR } from '../audit/trail';
import type { AlarmRow, DB } from '../db/schema';
import { transact } from '../db/transact';
import { changeAlarm, stateOf } from './store';

/**
 * What the alarm engine's timer does besides evaluating (docs/alarms.md, "Shelving", "Suppression"):
 *   - a shelved alarm whose time is up comes back unacknowledged while its condition stands, closed otherwise;
 *   - an open alarm of a device now in Repair (or a vital rule's outside a session) becomes suppressed, and
 *     a suppressed one whose suppression ended comes back (or closes).
 * Each change is conditional on the state it was read in, so several server processes sweeping one store
 * change each alarm once. Answers the rows changed; their messages' live events are added to `notices`.
 */
export const sweepAlarms = async (db: Kysely<DB>, now: number, notices: MessageNotice[] = []): Promise<AlarmRow[]> => {
  const open = await db
    .selectFrom('alarms as a')
    .innerJoin('devices as d', 'd.id', 'a.device_id')
    .selectAll('a')
    .select(['d.state as device_state', 'd.session_oc'])
    .where('a.state', '<>', 'closed')
    .execute();
  const changes: { row: AlarmRow; input: AlarmInput }[] = [];
  for (const { device_state, session_oc, ...row } of open) {
    const suppressed = device_state === 'Repair' || (VITAL_KINDS.includes(row.kind as AlarmKind) && session_oc === null);
    if (row.state === 'shelved' && row.shelved_until !== null && Number(row.shelved_until) <= now) changes.push({ row, input: 'unshelve' });
    else if (suppressed && row.state !== 'suppressed' && row.state !== 'shelved') changes.push({ row, input: 'suppress' });
    else if (!suppressed && row.state === 'suppressed') changes.push({ row, input: 'release' });
  }
  if (changes.length === 0) return [];
  const swept = await transact(db, async (trx) => {
    const changed: AlarmRow[] = [];
    const announced: MessageNotice[] = [];
    for (const { row, input } of changes) {
      const to = nextAlarmState(stateOf(row), input, { condition: row.condition === 1, suppressed: input === 'suppress' });
      if (to === undefined) continue;
      const columns = input === 'unshelve' ? { shelved_until: null } : {};
      const after = await changeAlarm(trx, row, { to, columns, action: input === 'unshelve' ? 'alarm.unshelve' : 'alarm.change' }, SYSTEM_ACTOR, now, announced);
      if (after !== undefined) changed.push(after);
    }
    return { changed, announced };
  });
  notices.push(...swept.announced);
  return swept.changed;
};
