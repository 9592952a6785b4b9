import { describe, expect, it } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { AdminContext, memoryStore, testDataProvider, useNotificationContext, type DataProvider } from 'react-admin';
import { chinese } from '../../i18n';
import { userMenuFor, type UserMenuEntry } from '../../domain/menu';
import { useAppSettings } from '../settings/appSettings';
import { useActiveServerMenu, useServerMenuLoader } from './useServerMenu';

/** What a user of the frame sees: the notifications shown, the menu in force, and the setting's switch. */
const Probe = () => {
  useServerMenuLoader();
  const [settings, update] = useAppSettings();
  const menu = useActiveServerMenu();
  const { notifications } = useNotificationContext();
  return (
    <>
      <ol aria-label="notifications">
        {notifications.map(({ message, type }, index) => (
          <li key={index}>{`${type}: ${String(message)}`}</li>
        ))}
      </ol>
      <output aria-label="menu">{menu ? menu.map(({ path }) => path).join(' ') : 'console menu'}</output>
      <button onClick={() => update({ menuFromServer: !settings.menuFromServer })}>switch</button>
    </>
  );
};

const renderWith = (userMenu: () => Promise<UserMenuEntry[]>) => {
  const calls: number[] = [];
  const dataProvider = testDataProvider({
    userMenu: () => {
      calls.push(Date.now());
      return userMenu();
    },
  } as Partial<DataProvider>);
  render(
    <AdminContext dataProvider={dataProvider} store={memoryStore()} i18nProvider={polyglotI18nProvider(() => chinese, 'zh-CN')}>
      <Probe />
    </AdminContext>,
  );
  return { calls };
};

const shown = () => screen.getAllByRole('listitem').map((item) => item.textContent);

describe('the menu from the server', () => {
  it('is fetched when switched on, announced as loading then success, and in force until switched off', async () => {
    let answer: (entries: UserMenuEntry[]) => void = () => undefined;
    const { calls } = renderWith(() => new Promise((resolve) => (answer = resolve)));
    expect(calls).toHaveLength(0);
    expect(screen.getByRole('status', { name: 'menu' }).textContent).toBe('console menu');

    act(() => screen.getByRole('button', { name: 'switch' }).click());
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(shown()).toEqual(['info: app.serverMenu.loading']);

    await act(async () => answer(userMenuFor('client')));
    expect(shown()).toEqual(['info: app.serverMenu.loading', 'success: app.serverMenu.success']);
    expect(screen.getByRole('status', { name: 'menu' }).textContent).toBe(userMenuFor('client').map(({ path }) => path).join(' '));

    act(() => screen.getByRole('button', { name: 'switch' }).click());
    await waitFor(() => expect(screen.getByRole('status', { name: 'menu' }).textContent).toBe('console menu'));
    expect(calls).toHaveLength(1);
  });

  it('announces a failed load and switches the setting off, keeping the console menu', async () => {
    const { calls } = renderWith(() => Promise.reject(new Error('down')));
    act(() => screen.getByRole('button', { name: 'switch' }).click());
    await waitFor(() => expect(shown()).toEqual(['info: app.serverMenu.loading', 'error: app.serverMenu.error']));
    expect(screen.getByRole('status', { name: 'menu' }).textContent).toBe('console menu');
    // Switched off by the failure: switching on again asks the server again.
    act(() => screen.getByRole('button', { name: 'switch' }).click());
    await waitFor(() => expect(calls).toHaveLength(2));
  });
});
