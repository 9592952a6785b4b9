import { Fab, ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import TuneIcon from '@mui/icons-material/Tune';
import { useTranslate, useUserMenu } from 'react-admin';
import { useAppSettings, useSettingsDrawerOpen } from './appSettings';

/** The fixed button that opens the settings drawer, there only while the app bar (and its user menu) is hidden. */
export const SettingsFixedButton = () => {
  const translate = useTranslate();
  const [{ navbar }] = useAppSettings();
  const [, setOpen] = useSettingsDrawerOpen();
  if (navbar) return null;
  return (
    <Fab
      data-settings-open
      color="primary"
      size="medium"
      aria-label={translate('app.settings.open')}
      onClick={() => setOpen(true)}
      sx={{ position: 'fixed', right: 0, top: 280, borderRadius: '50% 0 0 50%', zIndex: (theme) => theme.zIndex.speedDial }}
    >
      <TuneIcon />
    </Fab>
  );
};

/** The user menu's entry to the settings drawer. */
export const SettingsMenuItem = () => {
  const translate = useTranslate();
  const [, setOpen] = useSettingsDrawerOpen();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      data-settings-open
      onClick={() => {
        userMenu?.onClose();
        setOpen(true);
      }}
    >
      <ListItemIcon>
        <TuneIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('app.settings.open')}</ListItemText>
    </MenuItem>
  );
};
