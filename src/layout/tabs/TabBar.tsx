import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Box, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tab, Tabs } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import MoreIcon from '@mui/icons-material/MoreVert';
import RefreshIcon from '@mui/icons-material/Refresh';
import { usePermissions, useStore, useStoreContext, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Role } from '../../domain/roles';
import { useAppSettings } from '../settings/appSettings';
import { mayOpenWithServerMenu } from '../serverMenu/serverMenuAccess';
import { useActiveServerMenu } from '../serverMenu/useServerMenu';
import { pageTab } from './pageTab';
import { closeTabs, closingsFor, isClosable, openTab, TAB_CLOSINGS, WORKPLACE_TAB, type TabClosing, type TabEntry } from './tabModel';

/** react-admin's Store keeps the open tabs, so they survive a reload; signing out clears them. */
const TABS_STORE_KEY = 'consoleTabs';

/** Where the tab menu opens: under the menu button, or where the tab was right-clicked. */
type MenuAnchor = { target: string } & ({ element: HTMLElement } | { top: number; left: number });

/** The tab bar (settings.tabBar): every page opened is a tab; the workplace stays first for good. */
export const TabBar = () => {
  const [{ tabBar }] = useAppSettings();
  return tabBar ? <OpenTabs /> : null;
};

const OpenTabs = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const location = useLocation();
  const [tabs, setTabs] = useStore<TabEntry[]>(TABS_STORE_KEY, [WORKPLACE_TAB]);
  const { getItem } = useStoreContext();
  const [menu, setMenu] = useState<MenuAnchor | null>(null);
  const { permissions: role } = usePermissions<Role>();
  const serverMenu = useActiveServerMenu();
  const { pathname, search } = location;

  // Pages opened before the role is known (just after a reload) wait for it, so none is left without a tab.
  const visitedBeforeRole = useRef<{ pathname: string; search: string }[]>([]);
  useEffect(() => {
    const visited = [...visitedBeforeRole.current, { pathname, search }];
    if (role === undefined) {
      visitedBeforeRole.current = visited;
      return;
    }
    visitedBeforeRole.current = [];
    // From the Store itself: pages opened in quick succession each add to what the last one stored, not
    // to the tabs of this render, which may not have caught up yet.
    const before = getItem<TabEntry[]>(TABS_STORE_KEY) ?? [WORKPLACE_TAB];
    const after = visited.reduce((open, at) => {
      // A page the server's menu leaves out shows not-found: no tab for it either.
      if (serverMenu && !mayOpenWithServerMenu(at.pathname, serverMenu)) return open;
      const entry = pageTab(at, role);
      return entry ? openTab(open, entry) : open;
    }, before);
    if (after !== before) setTabs(after);
  }, [pathname, search, role, serverMenu, setTabs, getItem]);

  const active = tabs.findIndex((tab) => tab.name === pathname);
  const menuTarget = menu ? tabs.find((tab) => tab.name === menu.target) : undefined;
  const allowed = menu ? closingsFor(tabs, menu.target) : undefined;
  const titleOf = (tab: TabEntry) => translate(tab.title, { smart_count: 2 });

  const close = (closing: TabClosing, target: string) => {
    setMenu(null);
    const after = closeTabs(tabs, closing, target, pathname);
    setTabs(after.tabs);
    if (after.navigateTo) navigate(after.navigateTo);
  };
  const reload = (tab: TabEntry) => {
    setMenu(null);
    navigate(`/redirect${tab.fullPath}`);
  };
  const openMenuAt = (target: string) => (event: MouseEvent) => {
    event.preventDefault();
    setMenu({ target, top: event.clientY, left: event.clientX });
  };

  return (
    <Box data-tab-bar sx={{ display: 'flex', alignItems: 'center', borderBottom: 1, borderColor: 'divider', mb: 1 }}>
      <Tabs
        value={active < 0 ? false : active}
        variant="scrollable"
        scrollButtons="auto"
        aria-label={translate('app.tabs.bar')}
        sx={{ flex: 1, minHeight: 40 }}
      >
        {tabs.map((tab) => (
          <Tab
            key={tab.name}
            component="div"
            data-tab={tab.name}
            onClick={() => navigate(tab.fullPath)}
            onContextMenu={openMenuAt(tab.name)}
            sx={{ minHeight: 40, py: 0, pr: isClosable(tab) ? 0.5 : 2, textTransform: 'none' }}
            label={
              <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                {titleOf(tab)}
                {isClosable(tab) && (
                  <IconButton
                    size="small"
                    component="span"
                    aria-label={translate('app.tabs.closeTab', { title: titleOf(tab) })}
                    onClick={(event) => {
                      event.stopPropagation();
                      close('close', tab.name);
                    }}
                  >
                    <CloseIcon sx={{ fontSize: 14 }} />
                  </IconButton>
                )}
              </Box>
            }
          />
        ))}
      </Tabs>
      <IconButton
        size="small"
        data-tab-menu
        aria-label={translate('app.tabs.actions')}
        onClick={(event) => setMenu({ target: tabs[active]?.name ?? WORKPLACE_TAB.name, element: event.currentTarget })}
      >
        <MoreIcon fontSize="small" />
      </IconButton>
      <Menu
        open={Boolean(menu && menuTarget)}
        onClose={() => setMenu(null)}
        anchorReference={menu && 'top' in menu ? 'anchorPosition' : 'anchorEl'}
        anchorPosition={menu && 'top' in menu ? { top: menu.top, left: menu.left } : undefined}
        anchorEl={menu && 'element' in menu ? menu.element : null}
      >
        {menuTarget && (
          <MenuItem data-tab-action="reload" onClick={() => reload(menuTarget)}>
            <ListItemIcon>
              <RefreshIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText primary={translate('app.tabs.reload')} />
          </MenuItem>
        )}
        {TAB_CLOSINGS.map((closing) => (
          <MenuItem
            key={closing}
            data-tab-action={closing}
            disabled={!allowed?.[closing]}
            onClick={() => menu && close(closing, menu.target)}
          >
            <ListItemText inset primary={translate(`app.tabs.${closing}`)} />
          </MenuItem>
        ))}
      </Menu>
    </Box>
  );
};
