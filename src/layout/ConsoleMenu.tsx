import { ListSubheader, MenuItem, ListItemIcon, ListItemText } from '@mui/material';
import LaunchIcon from '@mui/icons-material/Launch';
import { Menu, usePermissions, useSidebarState, useTranslate } from 'react-admin';
import type { Role } from '../domain/roles';
import { useConsoleConfig } from '../ConsoleConfigContext';
import { configuredResourcesFor, MENU_GROUPS, ROUTES, routesFor, type ConsoleRoute, type MenuGroup } from '../routes/routeTable';
import type { ServerMenuEntry } from './settings/appSettings';
import { useActiveServerMenu } from './serverMenu/useServerMenu';

const GroupHeader = ({ label }: { label: string }) => (
  <ListSubheader sx={{ lineHeight: 2.5, bgcolor: 'transparent' }}>{label}</ListSubheader>
);

const isMenuGroup = (group: string): group is MenuGroup => (MENU_GROUPS as readonly string[]).includes(group);

/** The server's entries, in its order, with its labels and groups: those of screens and groups the console has. */
const serverRoutes = (menu: ServerMenuEntry[]): ConsoleRoute[] =>
  menu.flatMap(({ path, labelKey, group }) => {
    const route = ROUTES.find((candidate) => candidate.path === path);
    return route && isMenuGroup(group) ? [{ ...route, labelKey, group }] : [];
  });

/**
 * The menu is the route table filtered by the role policy, grouped as the spec's menu was; with the menu
 * from the server in force, the server's entries instead.
 */
export const ConsoleMenu = () => {
  const translate = useTranslate();
  const [open] = useSidebarState();
  const { permissions: role } = usePermissions<Role>();
  const { externalLinks } = useConsoleConfig();
  const serverMenu = useActiveServerMenu();
  const routes = serverMenu ? serverRoutes(serverMenu) : routesFor(role);
  const resources = serverMenu ? [] : configuredResourcesFor(role);
  return (
    <Menu data-testid="console-menu">
      {MENU_GROUPS.flatMap((group) => {
        const entries = routes.filter((route) => route.group === group);
        const configured = resources.filter(({ options }) => options.config.menu.group === group);
        if (entries.length + configured.length === 0) return [];
        return [
          open && <GroupHeader key={group} label={translate(`app.menu.${group}`)} />,
          ...entries.map(({ path, labelKey, icon: Icon }) => (
            <Menu.Item key={path} to={path} primaryText={translate(labelKey)} leftIcon={<Icon />} />
          )),
          ...configured.map(({ name, icon: Icon }) => (
            <Menu.Item key={name} to={`/${name}`} primaryText={translate(`resources.${name}.name`, { smart_count: 2 })} leftIcon={<Icon />} />
          )),
        ];
      })}
      {open && <GroupHeader label={translate('app.menu.links')} />}
      {externalLinks.map(({ labelKey, href }) => (
        <MenuItem key={href} component="a" href={href} target="_blank" rel="noopener noreferrer">
          <ListItemIcon>
            <LaunchIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText primary={translate(labelKey)} />
        </MenuItem>
      ))}
    </Menu>
  );
};
