/**
 * CSV as the console writes it (RFC 4180, CRLF between rows), safe to open in a spreadsheet: a text cell
 * that a spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return) is written with a leading apostrophe, as OWASP's CSV injection advice says, so a device name or
 * an account typed as `=HYPERLINK(...)` shows as that text instead of running. Numbers are never text here,
 * so a negative reading stays a number.
 */

/** What a cell may hold: text, a number, a flag, or nothing (an empty cell). */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: neutralised when it would start a formula, quoted when it holds a comma, a quote or a line break. */
export const csvCell = (value: CsvValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** A table as CSV: the header row, then one row per record. */
export const csvTable = (header: readonly string[], rows: readonly (readonly CsvValue[])[]): string =>
  [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');
