import type { ReactNode } from 'react';
import {
  AppBar,
  Layout,
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
import { FetchingIndicator } from './FetchingIndicator';
import { LiveIndicator } from './LiveIndicator';
import { LocaleSwitcher } from './LocaleSwitcher';
import { MessageBox } from './messages/MessageBox';
import { MoreMenu } from './phone/MoreMenu';
import { usePhone } from '../resources/generate/usePhone';
import { ServerMenuLimit } from './serverMenu/ServerMenuLimit';
import { TabBar } from './tabs/TabBar';
import { TopMenu } from './TopMenu';
import { useDocumentTitle } from './useDocumentTitle';
import { useAppSettings, type AppSettings } from './settings/appSettings';
import { SettingsDrawer } from './settings/SettingsDrawer';
import { SettingsFixedButton, SettingsMenuItem } from './settings/SettingsOpeners';

/**
 * The menu sits in the app bar when there is one to hold it; otherwise at the side, unless turned off.
 * A phone has no room for it in the app bar: there it is the side menu, which react-admin draws as a drawer.
 */
const menuPlace = ({ navbar, menu, hideMenu, topMenu }: AppSettings, phone: boolean): 'top' | 'side' | 'none' => {
  if (topMenu && navbar && !phone) return 'top';
  return menu && !hideMenu ? 'side' : 'none';
};

const useMenuPlace = () => {
  const [settings] = useAppSettings();
  return menuPlace(settings, usePhone());
};

const ConsoleAppBar = () => {
  const [{ navbar }] = useAppSettings();
  const place = useMenuPlace();
  const phone = usePhone();
  const top = place === 'top';
  if (!navbar) return null;
  return (
    <AppBar
      color="primary"
      // Its menu button opens and collapses the side menu: useless when there is none.
      sx={place === 'side' ? undefined : { '& .RaAppBar-menuButton': { display: 'none' } }}
      userMenu={
        <UserMenu>
          <SettingsMenuItem />
          {/* Signing out on purpose ends at a plain login, not a return to this page for the next person. */}
          <Logout redirectTo="/login" />
        </UserMenu>
      }
      toolbar={
        phone ? (
          // The alarm counts and the message box stay in sight; the rest waits behind "more".
          <>
            <AlarmCounts />
            <MessageBox />
            <MoreMenu />
          </>
        ) : (
          <>
            <AlarmCounts />
            <LiveIndicator />
            <MessageBox />
            <LocaleSwitcher />
            <ToggleThemeButton />
            <FetchingIndicator />
          </>
        )
      }
    >
      {/* On a phone the alarm counts take the title's room; the page's name stays in the window's title and the menu. */}
      <TitlePortal sx={phone ? { display: 'none' } : top ? { flex: '0 1 auto', ml: 2 } : undefined} />
      {top && <TopMenu />}
    </AppBar>
  );
};

const ConsoleSidebar = (props: SidebarProps) => (useMenuPlace() === 'side' ? <Sidebar {...props} /> : null);

/**
 * react-admin's layout is at least as wide as its content (`min-width: fit-content`), so one wide table
 * widened every page on a phone; there the layout keeps to the window and each page fits its content to it.
 */
const PHONE_FRAME = { minWidth: 0, '& .RaLayout-content': { minWidth: 0 } } as const;

/** react-admin's layout, shaped by the page settings (docs/console.md, "Settings"). */
export const ConsoleLayout = ({ children }: { children: ReactNode }) => {
  useDocumentTitle();
  // The layout shows only while signed in: so does the live stream.
  useLiveStream();
  useOpenAlarmsFeed();
  const [{ navbar, footer }] = useAppSettings();
  const phone = usePhone();
  return (
    <Layout
      appBar={ConsoleAppBar}
      sidebar={ConsoleSidebar}
      menu={ConsoleMenu}
      // Without an app bar, no room is kept for it.
      sx={{ ...(navbar ? {} : { '& .RaLayout-appFrame': { mt: 0 } }), ...(phone ? PHONE_FRAME : {}) }}
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
