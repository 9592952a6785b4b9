import { csvTable as csv } from '../../../domain/csv';
import type { AlarmRecord } from '../../../domain/alarms/record';
import { REPORT_READINGS, type SessionReading } from '../../../domain/sessionReport';

/**
 * A session report's tables as CSV, one file each: columns under their wire names and values as the API
 * answers them (times in ISO 8601), so a spreadsheet or a script reads the names of the contracts; an empty
 * cell where there is no value; a text cell that a spreadsheet would run as a formula is neutralised (csv.ts).
 */

const iso = (time: number | null): string | null => (time === null ? null : new Date(time).toISOString());

/** The readings: `Time`, then one column per reading. */
export const readingsCsv = (readings: readonly SessionReading[]): string =>
  csv(
    ['Time', ...REPORT_READINGS],
    readings.map((reading) => [iso(reading.Time), ...REPORT_READINGS.map((name) => reading[name])]),
  );

const ALARM_COLUMNS = ['raisedAt', 'kind', 'priority', 'value', 'threshold', 'state', 'ackedAt', 'ackedBy', 'closedAt'] as const satisfies readonly (keyof AlarmRecord)[];
const ALARM_TIMES: ReadonlySet<string> = new Set(['raisedAt', 'ackedAt', 'closedAt']);

/** The alarms raised: one row per alarm, oldest first, as it stands now. */
export const alarmsCsv = (alarms: readonly AlarmRecord[]): string =>
  csv(
    ALARM_COLUMNS,
    alarms.map((alarm) => ALARM_COLUMNS.map((column) => (ALARM_TIMES.has(column) ? iso(alarm[column] as number | null) : (alarm[column] as string | number | null)))),
  );
