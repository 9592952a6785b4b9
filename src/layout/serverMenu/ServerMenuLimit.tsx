import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { ExceptionPage } from '../../pages/ExceptionPage';
import { mayOpenWithServerMenu } from './serverMenuAccess';
import { useActiveServerMenu, useServerMenuLoader } from './useServerMenu';

/** With the menu from the server in force, a page outside it shows not-found (the role guard runs too). */
export const ServerMenuLimit = ({ children }: { children: ReactNode }) => {
  useServerMenuLoader();
  const menu = useActiveServerMenu();
  const { pathname } = useLocation();
  return menu && !mayOpenWithServerMenu(pathname, menu) ? <ExceptionPage status={404} /> : children;
};
