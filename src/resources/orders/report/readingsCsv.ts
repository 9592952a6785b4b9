import { REPORT_READINGS, type SessionReading } from '../../../domain/sessionReport';

/**
 * A session's readings as CSV: `Time` (ISO 8601) then one column per reading under its wire name, so a
 * spreadsheet or a script reads the names of the MQTT contract; an empty cell where the chamber sent none.
 */
export const readingsCsv = (readings: readonly SessionReading[]): string => {
  const header = ['Time', ...REPORT_READINGS].join(',');
  const rows = readings.map((reading) =>
    [new Date(reading.Time).toISOString(), ...REPORT_READINGS.map((name) => (reading[name] === null ? '' : String(reading[name])))].join(','),
  );
  return [header, ...rows].join('\r\n');
};
