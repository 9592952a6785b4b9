import { useState, type ChangeEvent, type ReactElement } from 'react';
import { Alert, Box, Button, Divider, Drawer, FormControlLabel, IconButton, Stack, Switch, TextField, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useNotify, usePermissions, useTranslate } from 'react-admin';
import type { Role } from '../../domain/roles';
import { MENU_WIDTH_RANGE, useAppSettings, useSettingsDrawerOpen, type AppSettings } from './appSettings';

/** The old console's drawer width. */
const DRAWER_WIDTH = 300;

type SwitchKey = { [K in keyof AppSettings]: AppSettings[K] extends boolean ? K : never }[keyof AppSettings];

const CONTENT_SWITCHES: SwitchKey[] = ['navbar', 'menu', 'topMenu', 'menuCollapse', 'footer', 'tabBar', 'menuFromServer'];
const OTHER_SWITCHES: SwitchKey[] = ['colorWeak'];

/** One line of the drawer: the setting's name, its control at the right. */
const SettingRow = ({ labelKey, control }: { labelKey: string; control: ReactElement }) => {
  const translate = useTranslate();
  return <FormControlLabel label={translate(labelKey)} labelPlacement="start" sx={{ justifyContent: 'space-between', mx: 0 }} control={control} />;
};

/** A switch, `data-setting` on its input so checks can find and toggle it. */
const SettingSwitch = ({ name, checked, onChange }: { name: string; checked: boolean; onChange: (checked: boolean) => void }) => (
  <SettingRow
    labelKey={`app.settings.${name}`}
    control={
      <Switch
        size="small"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        // data-* attributes are valid on the input, but MUI's slot types do not list them.
        slotProps={{ input: { 'data-setting': name } as object }}
      />
    }
  />
);

/** The switch of one boolean setting. */
const BooleanSetting = ({ name }: { name: SwitchKey }) => {
  const [settings, update] = useAppSettings();
  return <SettingSwitch name={name} checked={settings[name]} onChange={(checked) => update({ [name]: checked })} />;
};

/** The template's route groups: the super administrator's switch only (templatePages.ts). */
const TemplatePagesSetting = () => {
  const { permissions: role } = usePermissions<Role>();
  return role === 'admin' ? <BooleanSetting name="templatePages" /> : null;
};

/** The menu width as typed: applied as soon as it is a width the console draws, shown back as applied on leaving. */
const MenuWidthField = () => {
  const translate = useTranslate();
  const [{ menuWidth }, update] = useAppSettings();
  const [typed, setTyped] = useState<string | null>(null);
  const value = Number(typed);
  const drawable = typed === null || (Number.isInteger(value) && value >= MENU_WIDTH_RANGE.min && value <= MENU_WIDTH_RANGE.max);
  const change = (event: ChangeEvent<HTMLInputElement>) => {
    setTyped(event.target.value);
    const width = Number(event.target.value);
    if (Number.isInteger(width) && width >= MENU_WIDTH_RANGE.min && width <= MENU_WIDTH_RANGE.max) update({ menuWidth: width });
  };
  return (
    <TextField
      type="number"
      margin="none"
      label={translate('app.settings.menuWidth')}
      value={typed ?? String(menuWidth)}
      onChange={change}
      onBlur={() => setTyped(null)}
      error={!drawable}
      helperText={translate('app.settings.menuWidthRange', MENU_WIDTH_RANGE)}
      slotProps={{ htmlInput: { 'data-setting': 'menuWidth', min: MENU_WIDTH_RANGE.min, max: MENU_WIDTH_RANGE.max, step: 10 } }}
    />
  );
};

/** The page settings drawer (docs/product.md, "The route table"): every change applies at once and is kept in react-admin's Store. */
export const SettingsDrawer = () => {
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useSettingsDrawerOpen();
  const [settings, update] = useAppSettings();
  const copy = () =>
    navigator.clipboard.writeText(JSON.stringify(settings, null, 2)).then(
      () => notify('app.settings.copied', { type: 'success' }),
      () => notify('app.settings.copyFailed', { type: 'error' }),
    );
  return (
    <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
      <Box data-settings-drawer sx={{ width: DRAWER_WIDTH, px: 2, py: 1, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="h6" component="h2">
            {translate('app.settings.title')}
          </Typography>
          <IconButton aria-label={translate('app.settings.close')} onClick={() => setOpen(false)}>
            <CloseIcon />
          </IconButton>
        </Stack>
        <Typography variant="subtitle2" color="text.secondary">
          {translate('app.settings.content')}
        </Typography>
        {CONTENT_SWITCHES.map((name) => (
          <BooleanSetting key={name} name={name} />
        ))}
        <MenuWidthField />
        <TemplatePagesSetting />
        <Divider />
        <Typography variant="subtitle2" color="text.secondary">
          {translate('app.settings.other')}
        </Typography>
        {OTHER_SWITCHES.map((name) => (
          <BooleanSetting key={name} name={name} />
        ))}
        <SettingSwitch name="theme" checked={settings.theme === 'dark'} onChange={(dark) => update({ theme: dark ? 'dark' : 'light' })} />
        <SettingRow
          labelKey="app.settings.themeColor"
          control={
            <Box
              component="input"
              type="color"
              data-setting="themeColor"
              value={settings.themeColor}
              onChange={(event: ChangeEvent<HTMLInputElement>) => update({ themeColor: event.target.value })}
              sx={{ width: 48, height: 32, p: 0, border: 'none', bgcolor: 'transparent', cursor: 'pointer' }}
            />
          }
        />
        <Alert severity="info" sx={{ mt: 1 }}>{translate('app.settings.alert')}</Alert>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button data-settings-close onClick={() => setOpen(false)}>
            {translate('app.settings.close')}
          </Button>
          <Button data-settings-copy variant="contained" startIcon={<ContentCopyIcon />} onClick={copy}>
            {translate('app.settings.copy')}
          </Button>
        </Stack>
      </Box>
    </Drawer>
  );
};
