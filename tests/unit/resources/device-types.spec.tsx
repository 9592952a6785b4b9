import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { DEFAULT_DEVICE_TYPES } from '../../../src/domain/deviceTypes';
import { configuredResourcesFor } from '../../../src/routes/routeTable';
import { column, input, submit, table, type, wait } from './dom';
import { REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';

/**
 * The device types' generated views against the mocks, and what they give the device manager: a type
 * shown and picked by its name, booleans as words, ids and row actions on one line.
 */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const NAMES = DEFAULT_DEVICE_TYPES.map(({ name }) => name);

describe('the device types resource', () => {
  it('lists the five named types with their rated maximum, the unit in the header, right-aligned', async () => {
    await renderConsole('/device-types');
    expect(await screen.findByText('第 1-5 条，共 5 条', {}, wait)).toBeTruthy();
    expect(column('类型名称')).toEqual(NAMES);
    expect(column('额定最高压力 (ATA)')).toEqual(['1.3', '1.5', '1.5', '1.5', '2']);
    const header = within(table()).getByText('额定最高压力 (ATA)').closest('th');
    expect(header?.className).toMatch(/alignRight/);
  });

  // Each language edits its own type: the mocks keep their tables for the whole file.
  it.each([
    ['zh-CN', 3, '额定最高压力 (ATA)', '保存', '不能大于 3'],
    ['en-US', 4, 'Rated maximum pressure (ATA)', 'Save', 'Must be at most 3'],
  ] as const)('refuses a rated maximum above 3 ATA in %s, and saves a valid edit', async (locale, id, label, save, tooBig) => {
    await renderConsole(`/device-types/${id}`, { locale });
    await waitFor(() => expect(input(label).value).toBe('1.5'), wait);
    type(label, '3.5');
    await submit(save);
    expect(await screen.findByText(tooBig, {}, wait)).toBeTruthy();
    type(label, '1.4');
    await submit(save);
    // The saved type's show page.
    expect(await screen.findByText('1.4', {}, wait)).toBeTruthy();
    expect(document.querySelector('input')).toBeNull();
  });

  it('is in the menu of the admin who edits the types, not of the roles that only read them', () => {
    expect(configuredResourcesFor('admin').map(({ name }) => name)).toContain('device-types');
    for (const role of ['user', 'lowUser', 'client'] as const) {
      expect(configuredResourcesFor(role).map(({ name }) => name)).not.toContain('device-types');
    }
  });
});

describe('the device manager, readable', () => {
  it('shows each type by name, booleans as words, ids and row actions on one line', async () => {
    await renderConsole('/devices');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    await waitFor(() => expect(column('类型').every((name) => NAMES.includes(String(name)))).toBe(true), wait);
    expect(new Set(column('在线'))).toEqual(new Set(['是', '否']));
    const firstRow = document.querySelector('table tbody tr') as HTMLElement;
    expect(getComputedStyle(firstRow.querySelector('td.column-Id span') as HTMLElement).whiteSpace).toBe('nowrap');
    // The admin's actions are icons named by their tooltips, in one box that does not wrap.
    const actions = within(firstRow).getAllByRole('button').filter((button) => button.getAttribute('aria-label'));
    expect(actions.map((button) => button.getAttribute('aria-label'))).toEqual(expect.arrayContaining(['设置状态', '设置参数']));
    expect(within(firstRow).getByRole('link', { name: '编辑' })).toBeTruthy();
    expect(getComputedStyle(actions[0]?.closest('td > span') as HTMLElement).whiteSpace).toBe('nowrap');
  });

  it('filters by type, the filter showing the type by name', async () => {
    await renderConsole(`/devices?filter=${encodeURIComponent(JSON.stringify({ Type: 5 }))}`);
    await waitFor(() => expect(new Set(column('类型'))).toEqual(new Set([NAMES[4]])), wait);
    const filter = document.querySelector('form.RaFilterForm-form, .filter-field[data-source="Type"]') as HTMLElement;
    await waitFor(() => expect(within(filter).getByRole('combobox', { name: /类型/ }).textContent).toBe(NAMES[4]), wait);
  });
});
