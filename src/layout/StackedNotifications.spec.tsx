import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { CoreAdminContext, memoryStore, useNotify } from 'react-admin';
import { ConsoleConfigProvider } from '../ConsoleConfigContext';
import { defaultConfig } from '../config';
import { chinese } from '../i18n';
import { StackedNotifications } from './StackedNotifications';

const Burst = () => {
  const notify = useNotify();
  return (
    <button
      onClick={() => {
        notify('ra.notification.updated', { type: 'success', messageArgs: { smart_count: 2 } });
        notify('ra.notification.item_doesnt_exist', { type: 'error' });
        notify('设备 OC-1 没有应答', { type: 'warning', autoHideDuration: 300 });
      }}
    >
      burst
    </button>
  );
};

const renderWith = (errorToastMs: number) =>
  render(
    <ConsoleConfigProvider value={{ ...defaultConfig, errorToastMs }}>
      <CoreAdminContext i18nProvider={polyglotI18nProvider(() => chinese, 'zh-CN')} store={memoryStore()}>
        <Burst />
        <StackedNotifications />
      </CoreAdminContext>
    </ConsoleConfigProvider>,
  );

describe('StackedNotifications', () => {
  it('shows notifications raised together all at once, translated, each leaving after its own time', async () => {
    renderWith(1500);
    fireEvent.click(screen.getByText('burst'));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual(['已更新 2 条记录', '记录不存在', '设备 OC-1 没有应答']);
    // The one with its own 300 ms goes first; the others keep the console's duration.
    await waitFor(() => expect(screen.queryByText('设备 OC-1 没有应答')).toBeNull(), { timeout: 1000 });
    expect(screen.getAllByRole('alert')).toHaveLength(2);
    await waitFor(() => expect(screen.queryAllByRole('alert')).toHaveLength(0), { timeout: 3000 });
  });

  it('closes one on its close button and leaves the others', async () => {
    renderWith(60_000);
    fireEvent.click(screen.getByText('burst'));
    await screen.findByText('记录不存在');
    const alert = screen.getByText('记录不存在').closest<HTMLElement>('[role=alert]');
    if (!alert) throw new Error('the notification is no alert');
    fireEvent.click(within(alert).getByRole('button', { name: '关闭' }));
    expect(screen.queryByText('记录不存在')).toBeNull();
    expect(screen.getByText('已更新 2 条记录')).toBeTruthy();
    expect(screen.getByText('设备 OC-1 没有应答')).toBeTruthy();
  });
});
