import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Link, Route } from 'react-router-dom';
import { createMockServer } from '../../../mocks/node';
import { ROUTES } from '../../../src/routes/routeTable';
import { bodyRows, column, table, wait } from './dom';
import { REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

describe('generated list', () => {
  it('shows the first page of devices with labels and choices in Chinese', async () => {
    await renderConsole('/devices');
    expect(await screen.findByText('第 1-10 条，共 55 条', {}, wait)).toBeTruthy();
    expect(column('设备编号')).toHaveLength(10);
    expect(column('设备编号')[0]).toBe('Id-001');
    expect(column('状态').every((state) => ['工作中', '空闲', '维修中'].includes(String(state)))).toBe(true);
  });

  it('labels with units, in English too', async () => {
    await renderConsole('/state-records', { locale: 'en-US' });
    expect(await screen.findByText('1-10 of 55', {}, wait)).toBeTruthy();
    for (const label of ['Cabin pressure (ATA)', 'Cabin oxygen concentration (%)', 'Cabin temperature (°C)', 'Blood pressure (mmHg)', 'Remaining time (min)']) {
      expect(within(table()).getByText(label)).toBeTruthy();
    }
  });

  it('names a reading\'s chamber by its Id, linked to the chamber, without looking chambers up', async () => {
    const lookups: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith('/get_OCProperty')) void request.clone().text().then((body) => body.includes('"filter":{"Id"') && lookups.push(body));
    });
    await renderConsole('/state-records', { locale: 'en-US' });
    await screen.findByText('1-10 of 55', {}, wait);
    const chambers = column('Device');
    expect(chambers).toHaveLength(10);
    expect(chambers.every((id) => String(id).startsWith('Id-'))).toBe(true);
    const links = bodyRows().map((row) => row.querySelector('a[href^="/devices/"]')?.getAttribute('href'));
    expect(links).toEqual(chambers.map((id) => `/devices/${String(id)}/show`));
    // A ReferenceField asks for the page's chambers by Id right after the rows are drawn.
    await new Promise((settled) => setTimeout(settled, 300));
    expect(lookups).toEqual([]);
    server.events.removeAllListeners();
  });

  it('filters, sorts and pages through the upstream', async () => {
    await renderConsole('/devices');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);

    fireEvent.change(screen.getByLabelText('设备编号'), { target: { value: 'Id-00' } });
    expect(await screen.findByText('第 1-9 条，共 9 条', {}, wait)).toBeTruthy();

    fireEvent.click(within(table()).getByText('设备编号'));
    await waitFor(() => expect(column('设备编号')[0]).toBe('Id-009'), wait);

    fireEvent.change(screen.getByLabelText('设备编号'), { target: { value: '' } });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    fireEvent.click(screen.getByLabelText('转到下一页'));
    expect(await screen.findByText('第 11-20 条，共 55 条', {}, wait)).toBeTruthy();
    await waitFor(() => expect(column('设备编号')[0]).toBe('Id-045'), wait);
  });

  it('adds an enum filter from the filter button', async () => {
    await renderConsole('/devices');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    fireEvent.click(screen.getByRole('button', { name: '添加筛选条件' }));
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: '状态' }, wait));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '状态' }, wait));
    fireEvent.click(await screen.findByRole('option', { name: '维修中' }, wait));
    await waitFor(() => expect(new Set(column('状态'))).toEqual(new Set(['维修中'])), wait);
  });

  it('offers show-only fields in the column chooser', async () => {
    await renderConsole('/devices');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    expect(within(table()).queryByText('最后在线时间')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '选择列' }));
    fireEvent.click(await screen.findByLabelText('最后在线时间', {}, wait));
    expect(await within(table()).findByText('最后在线时间', {}, wait)).toBeTruthy();
  });

  it('exports the current filter and sort as CSV with the wire names', async () => {
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:csv';
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await renderConsole('/devices');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    fireEvent.change(screen.getByLabelText('设备编号'), { target: { value: 'Id-01' } });
    await screen.findByText('第 1-10 条，共 10 条', {}, wait);
    fireEvent.click(within(table()).getByText('设备编号'));
    await waitFor(() => expect(column('设备编号')[0]).toBe('Id-019'), wait);

    fireEvent.click(screen.getByRole('button', { name: '导出' }));
    await waitFor(() => expect(blobs).toHaveLength(1), wait);
    const [header, ...lines] = String(await blobs[0]?.text()).split('\r\n');
    expect(header).toBe('Id,name,Type,Location,State,Permission,OrderNum,Emergency,Online,LastSeen,UpdateTime,SessionOC,InSession,Reading');
    // The reading, last, as its JSON in one quoted cell.
    expect(lines[0]).toMatch(/,"\{""Time"":\d+,.*\}"$/);
    expect(lines.map((line) => line.split(',')[0])).toEqual(['Id-019', 'Id-018', 'Id-017', 'Id-016', 'Id-015', 'Id-014', 'Id-013', 'Id-012', 'Id-011', 'Id-010']);
  });
});

describe('buttons follow the policy', () => {
  const editLinks = () => document.querySelectorAll('a[aria-label="编辑"]');
  /** Once the export button shows, the role's answers from canAccess are in. */
  const accessSettled = async () => {
    await screen.findByRole('button', { name: '导出' }, wait);
    await new Promise((resolve) => setTimeout(resolve, 200));
  };

  it('shows edit to an admin on every row', async () => {
    await renderConsole('/devices');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    await waitFor(() => expect(editLinks()).toHaveLength(10), wait);
  });

  it('hides edit from a first-level administrator, and create from everyone where the upstream cannot create', async () => {
    await renderConsole('/devices', { account: 'user' });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    await accessSettled();
    expect(editLinks()).toHaveLength(0);
    expect(document.querySelector('a[aria-label="新建"]')).toBeNull();
  });

  it('offers account creation to administrators', async () => {
    await renderConsole('/accounts', { account: 'user' });
    // Its subtree: itself and the client below it.
    await screen.findByText('第 1-2 条，共 2 条', {}, wait);
    await waitFor(() => expect(document.querySelector('a[aria-label="新建"]')).toBeTruthy(), wait);
    expect(column('账号级别').every((level) => ['超级管理员', '一级管理员', '二级管理员', '普通用户'].includes(String(level)))).toBe(true);
  });
});

describe('moving between the route table\'s lists', () => {
  it("never shows one list's records under another's columns while the next loads", async () => {
    // The readings log and the device manager as the console routes them: each path its own element, in one place.
    const screens = ROUTES.filter(({ path }) => path === '/list/readings' || path === '/list/device-manager');
    await renderConsole('/list/readings', {
      routes: screens.map(({ path, element }) => (
        <Route
          key={path}
          path={path}
          element={
            <>
              <Link to="/list/device-manager">device manager</Link>
              {element}
            </>
          }
        />
      )),
    });
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    expect(column('设备')).toHaveLength(10);
    // Every state the table passes through once it has the chambers' columns: each row's Id and name.
    const states: (readonly [string, string])[][] = [];
    const observer = new MutationObserver(() => {
      const ids = column('设备编号');
      if (ids.length === 0 || !document.querySelector('table thead')?.textContent?.includes('名称')) return;
      const names = column('名称');
      states.push(ids.map((id, row) => [String(id ?? ''), String(names[row] ?? '')] as const));
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    fireEvent.click(screen.getByText('device manager'));
    await waitFor(() => expect(column('设备编号')[0]).toBe('Id-001'), wait);
    observer.disconnect();
    expect(states.length).toBeGreaterThan(0);
    // A chamber's row names it; a reading's record under these columns would show its chamber's Id with no name.
    for (const rows of states) for (const [id, name] of rows) if (id !== '') expect(name, `row ${id}`).not.toBe('');
  });
});
