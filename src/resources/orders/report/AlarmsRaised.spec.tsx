import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { CoreAdminContext, memoryStore } from 'react-admin';
import type { AlarmRecord } from '../../../domain/alarms/record';
import type { Locale } from '../../../domain/locales';
import { chinese } from '../../../i18n';
import { english } from '../../../i18n/en-US';
import { AlarmsRaised } from './AlarmsRaised';
import { alarmsCsv } from './reportCsv';

const RAISED = Date.UTC(2026, 0, 5, 9, 10);

const CLOSED: AlarmRecord = {
  id: 7,
  deviceId: 'OC-A2',
  kind: 'o2-high',
  priority: 'high',
  state: 'closed',
  value: 23.6,
  threshold: 23.5,
  raisedAt: RAISED,
  ackedAt: RAISED + 60_000,
  ackedBy: 'second',
  closedAt: RAISED + 120_000,
  shelvedUntil: null,
  comment: 'door seal, checked',
};
const WAITING: AlarmRecord = {
  ...CLOSED,
  id: 9,
  kind: 'offline',
  priority: 'medium',
  state: 'rtn-unacked',
  value: null,
  threshold: null,
  raisedAt: RAISED + 300_000,
  ackedAt: null,
  ackedBy: null,
  closedAt: null,
  comment: null,
};
const ALARMS = [CLOSED, WAITING];

const renderIn = (locale: Locale, alarms: readonly AlarmRecord[] = ALARMS) =>
  render(
    <CoreAdminContext i18nProvider={polyglotI18nProvider(() => (locale === 'zh-CN' ? chinese : english), locale)} store={memoryStore()}>
      <AlarmsRaised alarms={alarms} />
    </CoreAdminContext>,
  );

const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
const at = (time: number, locale: Locale) => new Date(time).toLocaleString(locale);

describe("a session report's alarms", () => {
  it('lists each alarm raised: when, which, its priority, value against threshold, who acknowledged it when, when it closed', () => {
    renderIn('zh-CN');
    const table = screen.getByTestId('report-alarms');
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['报警时间', '报警类型', '优先级', '报警值 / 阈值', '确认', '关闭时间']);
    const [closed, waiting] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    expect(cells(closed)).toEqual([at(RAISED, 'zh-CN'), '舱内氧浓度高', '高', '23.6 / 23.5', `second，${at(RAISED + 60_000, 'zh-CN')}`, at(RAISED + 120_000, 'zh-CN')]);
    // Still open: no acknowledgement, and the state it is in where the closing time would be.
    expect(cells(waiting)).toEqual([at(RAISED + 300_000, 'zh-CN'), '数据中断', '中', '— / —', '—', '已恢复，未确认']);
    expect(closed.querySelector('[data-priority="high"] svg')).not.toBeNull();
  });

  it('says so in English when the session raised none', () => {
    renderIn('en-US', []);
    expect(screen.queryByTestId('report-alarms')).toBeNull();
    expect(screen.getByText('No alarm was raised during the session.')).toBeTruthy();
  });

  it('is exported as CSV under the wire names, times in ISO 8601, a comma-holding value quoted', () => {
    const rows = alarmsCsv([{ ...WAITING, ackedBy: 'ops, night' }, CLOSED]).split('\r\n');
    expect(rows).toEqual([
      'raisedAt,kind,priority,value,threshold,state,ackedAt,ackedBy,closedAt',
      '2026-01-05T09:15:00.000Z,offline,medium,,,rtn-unacked,,"ops, night",',
      '2026-01-05T09:10:00.000Z,o2-high,high,23.6,23.5,closed,2026-01-05T09:11:00.000Z,second,2026-01-05T09:12:00.000Z',
    ]);
  });
});
