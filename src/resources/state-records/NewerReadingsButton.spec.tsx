import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { CoreAdminContext, ListContextProvider, memoryStore, type ListControllerResult } from 'react-admin';
import type { Locale } from '../../domain/locales';
import { chinese } from '../../i18n';
import { english } from '../../i18n/en-US';
import { LiveContext } from '../../providers/live/LiveContext';
import { fakeConnection } from '../../../tests/unit/live/fakeConnection';
import { NewerReadingsButton } from './NewerReadingsButton';

const renderOn = (locale: Locale, page: number) => {
  const fake = fakeConnection();
  const list = { filterValues: {}, data: [], page, setPage: vi.fn(), refetch: vi.fn() };
  render(
    <CoreAdminContext i18nProvider={polyglotI18nProvider(() => (locale === 'zh-CN' ? chinese : english), locale)} store={memoryStore()}>
      <LiveContext.Provider value={fake.connection}>
        <ListContextProvider value={list as unknown as ListControllerResult}>
          <NewerReadingsButton />
        </ListContextProvider>
      </LiveContext.Provider>
    </CoreAdminContext>,
  );
  const arrive = async (count: number) => {
    act(() => {
      for (let i = 0; i < count; i += 1) fake.emit('event', { type: 'device', data: { Id: `OC-${i}`, Reading: { Id: `OC-${i}`, Time: 1000 + i } } });
    });
    await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
  };
  return { list, arrive };
};

describe('the readings log\u2019s newer readings button', () => {
  it('is absent until a reading arrives, then says how many and refetches the first page', async () => {
    const { list, arrive } = renderOn('zh-CN', 1);
    expect(screen.queryByRole('button')).toBeNull();
    await arrive(1234);
    fireEvent.click(screen.getByRole('button', { name: '显示 1,234 条新记录' }));
    expect(list.refetch).toHaveBeenCalledTimes(1);
    expect(list.setPage).not.toHaveBeenCalled();
  });

  it('goes back to the first page from another, in English', async () => {
    const { list, arrive } = renderOn('en-US', 3);
    await arrive(1);
    fireEvent.click(screen.getByRole('button', { name: 'Show 1 newer reading' }));
    expect(list.setPage).toHaveBeenCalledWith(1);
    expect(list.refetch).not.toHaveBeenCalled();
  });
});
