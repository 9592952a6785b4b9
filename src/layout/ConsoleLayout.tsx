import type { ReactNode } from 'react';
import { AppBar, Layout, LoadingIndicator, Logout, TitlePortal, ToggleThemeButton, UserMenu } from 'react-admin';
import { useLiveStream } from '../providers/live';
import { ConsoleMenu } from './ConsoleMenu';
import { LiveIndicator } from './LiveIndicator';
import { LocaleSwitcher } from './LocaleSwitcher';
import { MessageBox } from './messages/MessageBox';
import { useDocumentTitle } from './useDocumentTitle';

const ConsoleAppBar = () => (
  <AppBar
    userMenu={
      <UserMenu>
        {/* Signing out on purpose ends at a plain login, not a return to this page for the next person. */}
        <Logout redirectTo="/login" />
      </UserMenu>
    }
    toolbar={
      <>
        <LiveIndicator />
        <MessageBox />
        <LocaleSwitcher />
        <ToggleThemeButton />
        <LoadingIndicator />
      </>
    }
  >
    <TitlePortal />
  </AppBar>
);

export const ConsoleLayout = ({ children }: { children: ReactNode }) => {
  useDocumentTitle();
  // The layout shows only while signed in: so does the live stream.
  useLiveStream();
  return (
    <Layout appBar={ConsoleAppBar} menu={ConsoleMenu}>
      {children}
    </Layout>
  );
};
