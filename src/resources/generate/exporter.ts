import { downloadCSV, type Exporter } from 'react-admin';
import { readableEntries } from '../model';
import type { ResourceConfig } from '../types';

const cell = (value: unknown, isTime: boolean): string => {
  if (value === undefined || value === null) return '';
  if (isTime && typeof value === 'number') return new Date(value).toISOString();
  // A reading (an object) as its JSON, the wire's spelling of it.
  const text = Array.isArray(value) ? value.join(';') : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/**
 * The records as CSV: one column per field (passwords never), headed by the wire names so a spreadsheet
 * or a script reads the same names as the upstream contract; times as ISO 8601.
 */
const toCsv = (config: ResourceConfig, records: readonly Record<string, unknown>[]): string => {
  const columns = readableEntries(config);
  const header = columns.map(([source]) => cell(source, false)).join(',');
  const rows = records.map((record) => columns.map(([source, field]) => cell(record[source], field.kind === 'datetime')).join(','));
  return [header, ...rows].join('\r\n');
};

/** react-admin's ExportButton fetches the current filter and sort; this writes what it fetched. */
export const csvExporter =
  (config: ResourceConfig): Exporter =>
  (records: Record<string, unknown>[]) =>
    downloadCSV(toCsv(config, records), config.name);
