import { useState, type ReactNode } from 'react';
import { Box, Button, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Link, useLocation } from 'react-router-dom';
import { ExternalLinkItem } from './ExternalLinkItem';
import { useMenuGroups } from './useMenuGroups';

/** One group of the horizontal menu: a button in the app bar opening its entries below it. */
const TopMenuGroup = ({ label, active, children }: { label: string; active: boolean; children: (close: () => void) => ReactNode }) => {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        color="inherit"
        endIcon={<ExpandMoreIcon />}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ whiteSpace: 'nowrap', borderBottom: 2, borderColor: active ? 'currentColor' : 'transparent', borderRadius: 0 }}
      >
        {label}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        {children(close)}
      </Menu>
    </>
  );
};

/** The menu laid out in the app bar (the `topMenu` setting): the side menu's groups, each a drop-down. */
export const TopMenu = () => {
  const { groups, links } = useMenuGroups();
  const { pathname } = useLocation();
  return (
    <Box component="nav" data-top-menu sx={{ display: 'flex', flex: 1, flexWrap: 'nowrap', overflowX: 'auto', mx: 1 }}>
      {groups.map(({ group, label, entries }) => (
        <TopMenuGroup key={group} label={label} active={entries.some(({ to }) => pathname.startsWith(to))}>
          {(close) =>
            entries.map(({ to, label: text, icon: Icon }) => (
              <MenuItem key={to} component={Link} to={to} selected={pathname.startsWith(to)} onClick={close}>
                <ListItemIcon>
                  <Icon />
                </ListItemIcon>
                <ListItemText primary={text} />
              </MenuItem>
            ))
          }
        </TopMenuGroup>
      ))}
      <TopMenuGroup label={links.label} active={false}>
        {(close) =>
          links.entries.map(({ href, label }) => <ExternalLinkItem key={href} href={href} label={label} onClick={close} />)
        }
      </TopMenuGroup>
    </Box>
  );
};
