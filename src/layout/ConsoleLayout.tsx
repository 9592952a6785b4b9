import type { ReactNode } from 'react';
import {
  AppBar,
  Layout,
  LoadingIndicator,
  Logout,
  Sidebar,
  TitlePortal,
  ToggleThemeButton,
  UserMenu,
  type SidebarProps,
} from 'react-admin';
import { useOpenAlarmsFeed } from '../providers/alarms';
import { useLiveStream } from '../providers/live';
import { AlarmBanner } from './alarms/AlarmBanner';
import { AlarmCounts } from './alarms/AlarmCounts';
import { ConsoleFooter } from './ConsoleFooter';
import { ConsoleMenu } from './ConsoleMenu';
import { LiveIndicator } from './LiveIndicator';
import { LocaleSwitcher } from './LocaleSwitcher';
import { MessageBox } from './messages/MessageBox';
import { ServerMenuLimit } from './serverMenu/ServerMenuLimit';
import { TabBar } from './tabs/TabBar';
import { TopMenu } from './TopMenu';
import { useDocumentTitle } from './useDocumentTitle';
import { useAppSettings, type AppSettings } from './settings/appSettings';
import { SettingsDrawer } from './settings/SettingsDrawer';
import { SettingsFixedButton, SettingsMenuItem } from './settings/SettingsOpeners';

/** The menu sits in the app bar when there is one to hold it; otherwise at the side, unless turned off. */
const menuPlace = ({ navbar, menu, hideMenu, topMenu }: AppSettings): 'top' | 'side' | 'none' => {
  if (topMenu && navbar) return 'top';
  return menu && !hideMenu ? 'side' : 'none';
};

const ConsoleAppBar = () => {
  const [settings] = useAppSettings();
  const top = menuPlace(settings) === 'top';
  if (!settings.navbar) return null;
  return (
    <AppBar
      color="primary"
      // Its menu button opens and collapses the side menu: useless when there is none.
      sx={menuPlace(settings) === 'side' ? undefined : { '& .RaAppBar-menuButton': { display: 'none' } }}
      userMenu={
        <UserMenu>
          <SettingsMenuItem />
          {/* Signing out on purpose ends at a plain login, not a return to this page for the next person. */}
          <Logout redirectTo="/login" />
        </UserMenu>
      }
      toolbar={
        <>
          <AlarmCounts />
          <LiveIndicator />
          <MessageBox />
          <LocaleSwitcher />
          <ToggleThemeButton />
          <LoadingIndicator />
        </>
      }
    >
      <TitlePortal sx={top ? { flex: '0 1 auto', ml: 2 } : undefined} />
      {top && <TopMenu />}
    </AppBar>
  );
};

const ConsoleSidebar = (props: SidebarProps) => {
  const [settings] = useAppSettings();
  return menuPlace(settings) === 'side' ? <Sidebar {...props} /> : null;
};

/** react-admin's layout, shaped by the page settings (docs/console.md, "Settings"). */
export const ConsoleLayout = ({ children }: { children: ReactNode }) => {
  useDocumentTitle();
  // The layout shows only while signed in: so does the live stream.
  useLiveStream();
  useOpenAlarmsFeed();
  const [{ navbar, footer }] = useAppSettings();
  return (
    <Layout
      appBar={ConsoleAppBar}
      sidebar={ConsoleSidebar}
      menu={ConsoleMenu}
      // Without an app bar, no room is kept for it.
      sx={navbar ? undefined : { '& .RaLayout-appFrame': { mt: 0 } }}
    >
      <AlarmBanner />
      <TabBar />
      <ServerMenuLimit>{children}</ServerMenuLimit>
      {footer && <ConsoleFooter />}
      <SettingsFixedButton />
      <SettingsDrawer />
    </Layout>
  );
};
