import { ListSubheader, MenuItem, ListItemIcon, ListItemText } from '@mui/material';
import LaunchIcon from '@mui/icons-material/Launch';
import { Menu, usePermissions, useSidebarState, useTranslate } from 'react-admin';
import type { Role } from '../domain/roles';
import { useConsoleConfig } from '../ConsoleConfigContext';
import { MENU_GROUPS } from '../domain/menu';
import { configuredResourcesFor, routesFor } from '../routes/routeTable';

const GroupHeader = ({ label }: { label: string }) => (
  <ListSubheader sx={{ lineHeight: 2.5, bgcolor: 'transparent' }}>{label}</ListSubheader>
);

/** The menu is the route table filtered by the role policy, grouped as the spec's menu was. */
export const ConsoleMenu = () => {
  const translate = useTranslate();
  const [open] = useSidebarState();
  const { permissions: role } = usePermissions<Role>();
  const { externalLinks } = useConsoleConfig();
  const routes = routesFor(role);
  const resources = configuredResourcesFor(role);
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
