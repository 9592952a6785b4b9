import { localStorageStore, type Store } from 'react-admin';
import { APP_SETTINGS_STORE_KEY, browserSettings, type AppSettings } from './appSettings';

/** What belongs to the browser rather than to who is signed in: the language and the page settings. */
const KEPT_ON_SIGN_OUT = ['locale', 'theme', 'sidebar.open'];

/**
 * react-admin's store, except that signing out keeps the browser's own choices; everything of the account
 * goes (its open tabs, list filters, the menu its server sent). react-admin clears the query cache beside it.
 */
export const consoleStore = (): Store => {
  const store = localStorageStore();
  return {
    ...store,
    reset() {
      const kept = KEPT_ON_SIGN_OUT.map((key) => [key, store.getItem<unknown>(key)] as const);
      const settings = store.getItem<Partial<AppSettings>>(APP_SETTINGS_STORE_KEY);
      store.reset();
      for (const [key, value] of kept) if (value !== undefined) store.setItem(key, value);
      if (settings !== undefined) store.setItem(APP_SETTINGS_STORE_KEY, browserSettings(settings));
    },
  };
};
