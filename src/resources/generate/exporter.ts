import { downloadCSV, type Exporter } from 'react-admin';
import { csvTable } from '../../domain/csv';
import { readableEntries } from '../model';
import type { ResourceConfig } from '../types';

const cellValue = (value: unknown, isTime: boolean): string | number | boolean | null => {
  if (value === undefined || value === null) return null;
  if (isTime && typeof value === 'number') return new Date(value).toISOString();
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  // A reading (an object) as its JSON, the wire's spelling of it.
  return Array.isArray(value) ? value.join(';') : typeof value === 'object' ? JSON.stringify(value) : String(value);
};

/**
 * The records as CSV: one column per field (passwords never), headed by the wire names so a spreadsheet
 * or a script reads the same names as the upstream contract; times as ISO 8601.
 */
const toCsv = (config: ResourceConfig, records: readonly Record<string, unknown>[]): string => {
  const columns = readableEntries(config);
  return csvTable(
    columns.map(([source]) => source),
    records.map((record) => columns.map(([source, field]) => cellValue(record[source], field.kind === 'datetime'))),
  );
};

/** react-admin's ExportButton fetches the current filter and sort; this writes what it fetched. */
export const csvExporter =
  (config: ResourceConfig): Exporter =>
  (records: Record<string, unknown>[]) =>
    downloadCSV(toCsv(config, records), config.name);
