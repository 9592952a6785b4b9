import { useState } from 'react';
import { Box, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Tooltip } from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import RefreshIcon from '@mui/icons-material/Refresh';
import Brightness4Icon from '@mui/icons-material/Brightness4';
import Brightness7Icon from '@mui/icons-material/Brightness7';
import { useRefresh, useTranslate } from 'react-admin';
import { LiveIndicator } from '../LiveIndicator';
import { LocaleSwitcher } from '../LocaleSwitcher';
import { useAppSettings } from '../settings/appSettings';

/**
 * The app bar's secondary controls on a phone, where they do not fit beside the alarm counts: the live
 * status, the language, the theme and refresh. Kept mounted, so the language switcher confirms a switch
 * in the new language as it does in the app bar.
 */
export const MoreMenu = () => {
  const translate = useTranslate();
  const refresh = useRefresh();
  const [{ theme }, change] = useAppSettings();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const label = translate('app.phone.more');
  return (
    <>
      <Tooltip title={label}>
        <IconButton color="inherit" aria-label={label} aria-haspopup="menu" data-more-menu onClick={(event) => setAnchor(event.currentTarget)}>
          <MoreVertIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close} keepMounted>
        <Box sx={{ px: 1, pb: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
          <LiveIndicator />
          <LocaleSwitcher color="primary" />
        </Box>
        <MenuItem
          onClick={() => {
            close();
            change({ theme: theme === 'dark' ? 'light' : 'dark' });
          }}
        >
          <ListItemIcon>{theme === 'dark' ? <Brightness7Icon /> : <Brightness4Icon />}</ListItemIcon>
          <ListItemText>{translate('ra.action.toggle_theme')}</ListItemText>
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            refresh();
          }}
        >
          <ListItemIcon>
            <RefreshIcon />
          </ListItemIcon>
          <ListItemText>{translate('ra.action.refresh')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
};
