import { ListSubheader } from '@mui/material';
import { Menu, useSidebarState } from 'react-admin';
import { ExternalLinkItem } from './ExternalLinkItem';
import { useMenuGroups } from './useMenuGroups';

const GroupHeader = ({ label }: { label: string }) => (
  <ListSubheader sx={{ lineHeight: 2.5, bgcolor: 'transparent' }}>{label}</ListSubheader>
);

/** The side menu: the menu's groups under their headers (shown while the menu is open), then the links. */
export const ConsoleMenu = () => {
  const [open] = useSidebarState();
  const { groups, links } = useMenuGroups();
  return (
    <Menu data-testid="console-menu">
      {groups.flatMap(({ group, label, entries }) => [
        open && <GroupHeader key={group} label={label} />,
        ...entries.map(({ to, label: text, icon: Icon }) => <Menu.Item key={to} to={to} primaryText={text} leftIcon={<Icon />} />),
      ])}
      {open && <GroupHeader label={links.label} />}
      {links.entries.map(({ href, label }) => (
        <ExternalLinkItem key={href} href={href} label={label} />
      ))}
    </Menu>
  );
};
