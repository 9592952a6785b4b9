import { Children, isValidElement, useDeferredValue, useState, type ReactNode } from 'react';
import { DatagridBody, PureDatagridRow, type DatagridBodyProps, type Identifier, type RaRecord } from 'react-admin';
import { PER_READING_FIELDS } from '../../domain/live';

/** Whether two records hold the same values in every field but the `ignored` ones. */
export const sameExcept = (before: Readonly<Record<string, unknown>>, record: Readonly<Record<string, unknown>>, ignored: ReadonlySet<string>): boolean => {
  if (before === record) return true;
  const keys = new Set([...Object.keys(before), ...Object.keys(record)]);
  for (const key of keys) if (!ignored.has(key) && before[key] !== record[key]) return false;
  return true;
};

/**
 * `records`, where each record that differs from the one `previous` holds for its id only in `ignored`
 * fields is replaced by that previous object; `previous` is updated to what is answered.
 */
export const keepUnchanged = (previous: Map<Identifier, RaRecord>, records: readonly RaRecord[], ignored: ReadonlySet<string>): RaRecord[] => {
  const kept = records.map((record) => {
    const before = previous.get(record.id);
    return before !== undefined && sameExcept(before, record, ignored) ? before : record;
  });
  previous.clear();
  for (const record of kept) previous.set(record.id, record);
  return kept;
};

/** The sources of the columns shown (the datagrid hands the body its visible fields). */
const shownSources = (columns: readonly ReactNode[]): Set<string> =>
  new Set(
    columns.flatMap((child) =>
      isValidElement<{ source?: unknown }>(child) && typeof child.props.source === 'string' ? [child.props.source] : [],
    ),
  );

/**
 * The datagrid body of the generated lists: a live patch that changes only what no column shows (a
 * device's last-seen time and newest reading, every second) renders no row again. Rows are memoised
 * (PureDatagridRow) and each keeps its record object while only such fields changed, so neither its
 * props nor its record context change. A column showing one of them (the column chooser) follows it.
 *
 * A new page (the readings log refetches its page every 2 s while readings arrive, and every row is new)
 * is rendered as a deferred value: React renders it in slices between other work, and the rows shown
 * stay until it is ready, where a render of the whole page at once was a long task of 100-200 ms.
 */
export const StableDatagridBody = ({ data = [], children, ...props }: DatagridBodyProps) => {
  // The records last rendered, by id: one map for the body's life, updated as each page is compared with it.
  const [previous] = useState(() => new Map<Identifier, RaRecord>());
  const page = useDeferredValue(data);
  const columns = Children.toArray(children);
  const shown = shownSources(columns);
  const ignored = new Set<string>(PER_READING_FIELDS.filter((field) => !shown.has(field)));
  const rows = keepUnchanged(previous, page, ignored);
  // A memoised row compares everything but its cells (its children), so rows drawn before the column
  // chooser had its columns (a first visit: DatagridConfigurable learns them in an effect, and rows
  // that came first were drawn with none) would stay empty. A new set of columns draws the rows anew.
  const columnKeys = columns.map((child) => (isValidElement(child) ? String(child.key) : '')).join(' ');
  return (
    <DatagridBody key={columnKeys} {...props} data={rows} row={<PureDatagridRow />}>
      {children}
    </DatagridBody>
  );
};
