import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { CoreAdminContext, memoryStore } from 'react-admin';
import { fakeConnection } from '../../tests/unit/live/fakeConnection';
import { chinese } from '../i18n';
import { english } from '../i18n/en-US';
import { type Locale } from '../domain/locales';
import type { LiveStatus } from '../providers/live';
import { LiveContext } from '../providers/live/LiveContext';
import { LiveIndicator } from './LiveIndicator';

const renderIn = (locale: Locale) => {
  const fake = fakeConnection();
  const view = render(
    <CoreAdminContext i18nProvider={polyglotI18nProvider(() => (locale === 'zh-CN' ? chinese : english), locale)} store={memoryStore()}>
      <LiveContext.Provider value={fake.connection}>
        <LiveIndicator />
      </LiveContext.Provider>
    </CoreAdminContext>,
  );
  return { ...fake, view };
};

describe('LiveIndicator', () => {
  it('shows nothing while the stream is off, then each state in Chinese', () => {
    const { emit } = renderIn('zh-CN');
    expect(screen.queryByRole('status')).toBeNull();
    const shown: [LiveStatus, string, string][] = [
      ['connecting', '连接中', '正在连接实时数据'],
      ['live', '实时', '数据实时更新'],
      ['reconnecting', '重新连接中', '实时连接已断开，正在重新连接'],
      ['polling', '定时刷新', '实时连接不可用，列表每 10 秒刷新一次；连接恢复后自动切回实时'],
    ];
    for (const [status, label, hint] of shown) {
      act(() => emit('status', status));
      expect(screen.getByRole('status').textContent).toBe(label);
      expect(screen.getByRole('status').getAttribute('aria-label')).toBe(`${label}: ${hint}`);
    }
  });

  it('speaks English too', () => {
    const { emit } = renderIn('en-US');
    act(() => emit('status', 'polling'));
    expect(screen.getByRole('status').textContent).toBe('Refreshing');
    expect(screen.getByRole('status').getAttribute('aria-label')).toMatch(/refresh every 10 seconds/);
  });
});
