import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { MOCK_EPOCH, seedTables } from '../../../mocks/seed';
import { HOUR_MS, localInputValue, MINUTE_MS } from '../../../src/domain/time';
import { RESOURCE_CONFIGS } from '../../../src/resources/configs';
import { historyCsv } from '../../../src/resources/devices/detail/historyTable';
import { wait } from '../resources/dom';
import { REST, UPSTREAM } from '../resources/fixtures';
import { renderConsole } from '../resources/renderConsole';

/**
 * The detail's history over any range against the msw mock of `GET /api/v1/devices/{Id}/history`: the
 * range's charts, a range that ends before it starts refused under its field, and the CSV of the range.
 */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const records = seedTables(RESOURCE_CONFIGS).get('state-records') ?? [];
const DEVICE = String(records[0]?.Id);
const readings = records.filter((record) => record.Id === DEVICE);

const points = (chart: string) => Number(document.querySelector(`[data-chart="${chart}"]`)?.getAttribute('data-points'));

describe('the device detail\'s history', () => {
  // Every step re-renders the whole page with its charts, which jsdom does slowly on a busy machine.
  it('charts any range from the history, refuses one that ends before it starts, and exports the range as CSV', async () => {
    const asked: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.includes('/history?')) asked.push(request.url);
    });
    const saved: Blob[] = [];
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      saved.push(blob as Blob);
      return 'blob:history';
    };
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);

    await renderConsole(`/devices/${encodeURIComponent(DEVICE)}/show`);
    await screen.findByRole('heading', { level: 1, name: DEVICE }, wait);
    fireEvent.click(await screen.findByRole('button', { name: '自定义' }, wait));
    const [from, to] = [MOCK_EPOCH - 72 * HOUR_MS, MOCK_EPOCH + MINUTE_MS];
    fireEvent.change(screen.getByLabelText('开始时间'), { target: { value: localInputValue(to) } });
    fireEvent.change(screen.getByLabelText('结束时间'), { target: { value: localInputValue(from) } });
    expect(await screen.findByText('结束时间必须晚于开始时间', {}, wait)).toBeTruthy();
    expect((screen.getByRole('button', { name: '查看' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('开始时间'), { target: { value: localInputValue(from) } });
    fireEvent.change(screen.getByLabelText('结束时间'), { target: { value: localInputValue(to) } });
    fireEvent.click(screen.getByRole('button', { name: '查看' }));
    const pressures = readings.filter((record) => Number(record.Time) >= from && typeof record.RCP === 'number');
    expect(pressures.length).toBeGreaterThan(0);
    // Each pressure bucket draws its mean, its min and its band; the set point likewise.
    await waitFor(() => expect(points('舱压与设定压力')).toBeGreaterThan(0), wait);
    const url = new URL(asked.at(-1) ?? '');
    expect(url.pathname).toBe(`/api/v1/devices/${encodeURIComponent(DEVICE)}/history`);
    expect(Number(url.searchParams.get('from'))).toBe(Math.floor(from / 60_000) * 60_000);

    fireEvent.click(screen.getByRole('button', { name: '导出本时段 CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1), wait);
    const csv = await (saved[0] as Blob).text();
    const [header, ...rows] = csv.split('\r\n');
    expect(header?.startsWith('time,RCP_min,RCP_mean,RCP_max,')).toBe(true);
    expect(rows.length).toBeGreaterThan(0);
  }, 120_000);

  it('writes one CSV row per bucket, every reading\'s min, mean and max, empty where a bucket has none', () => {
    const csv = historyCsv({
      Id: 'OC-1',
      from: 0,
      to: 120_000,
      bucketMs: 60_000,
      source: 'raw',
      series: {
        RCP: [
          { t: 0, min: 1.1, mean: 1.15, max: 1.2, n: 2 },
          { t: 60_000, min: 1.3, mean: 1.3, max: 1.3, n: 1 },
        ],
        HmHR: [{ t: 60_000, min: 70, mean: 71.3333333, max: 73, n: 3 }],
      },
    });
    expect(csv).toBe(
      ['time,RCP_min,RCP_mean,RCP_max,HmHR_min,HmHR_mean,HmHR_max', '1970-01-01T00:00:00.000Z,1.1,1.15,1.2,,,', '1970-01-01T00:01:00.000Z,1.3,1.3,1.3,70,71.333,73'].join('\r\n'),
    );
  });
});
