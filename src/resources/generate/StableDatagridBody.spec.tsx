import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { AdminContext, ResourceContextProvider, TextField, type Identifier, type RaRecord } from 'react-admin';
import { keepUnchanged, StableDatagridBody } from './StableDatagridBody';

const device = (id: string, fields: Record<string, unknown> = {}): RaRecord => ({ id, Id: id, State: 'Work', LastSeen: 1000, Reading: { Time: 1000, RCP: 1.3 }, ...fields });
const ignored = new Set(['LastSeen', 'Reading']);

describe('the generated lists keep a row’s record while only what no column shows changed', () => {
  it('keeps the earlier object when a new reading and last-seen time are all that differ', () => {
    const previous = new Map<Identifier, RaRecord>();
    const first = [device('OC-1'), device('OC-2')];
    expect(keepUnchanged(previous, first, ignored)).toEqual(first);
    const patched = [device('OC-1', { LastSeen: 2000, Reading: { Time: 2000, RCP: 1.4 } }), first[1] as RaRecord];
    const kept = keepUnchanged(previous, patched, ignored);
    expect(kept[0]).toBe(first[0]);
    expect(kept[1]).toBe(first[1]);
  });

  it('takes the new object when a shown field changed, and from then on compares with it', () => {
    const previous = new Map<Identifier, RaRecord>();
    keepUnchanged(previous, [device('OC-1')], ignored);
    const repaired = device('OC-1', { State: 'Repair', LastSeen: 2000 });
    expect(keepUnchanged(previous, [repaired], ignored)[0]).toBe(repaired);
    const later = device('OC-1', { State: 'Repair', LastSeen: 3000 });
    expect(keepUnchanged(previous, [later], ignored)[0]).toBe(repaired);
  });

  it('follows the last-seen time when a column shows it', () => {
    const previous = new Map<Identifier, RaRecord>();
    keepUnchanged(previous, [device('OC-1')], new Set(['Reading']));
    const seen = device('OC-1', { LastSeen: 2000 });
    expect(keepUnchanged(previous, [seen], new Set(['Reading']))[0]).toBe(seen);
  });

  it('forgets the rows of an earlier page', () => {
    const previous = new Map<Identifier, RaRecord>();
    keepUnchanged(previous, [device('OC-1')], ignored);
    keepUnchanged(previous, [device('OC-2')], ignored);
    expect([...previous.keys()]).toEqual(['OC-2']);
  });
});

describe('the generated lists’ body', () => {
  /** Each row's cells' text. */
  const cells = () => [...document.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));

  it('draws the cells of rows it drew before their columns were known (a first visit, before the column chooser has them)', () => {
    const records = [device('OC-1'), device('OC-2', { State: 'Repair' })];
    const body = (columns: ReactNode) => (
      <AdminContext>
        <ResourceContextProvider value="devices">
          <table>
            <StableDatagridBody data={records}>{columns}</StableDatagridBody>
          </table>
        </ResourceContextProvider>
      </AdminContext>
    );
    const { rerender } = render(body([]));
    expect(cells()).toEqual([[], []]);
    rerender(body([<TextField key="Id" source="Id" />, <TextField key="State" source="State" />]));
    expect(cells()).toEqual([
      ['OC-1', 'Work'],
      ['OC-2', 'Repair'],
    ]);
  });
});
