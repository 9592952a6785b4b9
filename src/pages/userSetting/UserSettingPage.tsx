import { Alert, AlertTitle, Box, Card, Stack, Tab, Tabs } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Title, useTranslate } from 'react-admin';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useConsoleConfig } from '../../ConsoleConfigContext';
import { mustChangeCode, passwordChanged } from '../../providers/authProvider';
import { afterLoginPath } from '../../providers/loginPath';
import { USER_SETTING_TABS } from './tabs';

/**
 * `/user/setting`: the user's own settings in tabs (./tabs.ts): basic information, security (the own
 * password and open sessions) and certification; `?tab=` names the one shown. It is also where an account
 * whose password was reset is sent after sign-in: it says why and shows only the password, and once the new
 * password is accepted the console opens again and goes on to the page the user asked for (`redirect`).
 */
export const UserSettingPage = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { search } = useLocation();
  const [params, setParams] = useSearchParams();
  const { landingPath } = useConsoleConfig();
  const queryClient = useQueryClient();
  const pending = mustChangeCode();
  const tabs = USER_SETTING_TABS.filter((tab) => !pending || tab.whileMustChange === true);
  const shown = tabs.find((tab) => tab.id === params.get('tab')) ?? tabs[0];

  const changed = () => {
    if (!mustChangeCode()) return;
    passwordChanged();
    // Access answered while the console was closed (canAccess said no) must not outlive it.
    void queryClient.invalidateQueries({ queryKey: ['auth'] });
    navigate(afterLoginPath(search, landingPath), { replace: true });
  };
  const choose = (id: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('tab', id);
        return next;
      },
      { replace: true },
    );

  if (shown === undefined) return null;
  const View = shown.view;
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Title title={translate('app.menu.userSetting')} />
      {pending && (
        <Alert severity="warning" data-testid="must-change-code">
          <AlertTitle>{translate('app.password.mustChangeTitle')}</AlertTitle>
          {translate('app.password.mustChangeBody')}
        </Alert>
      )}
      <Card>
        <Tabs value={shown.id} onChange={(_, id: string) => choose(id)} aria-label={translate('app.menu.userSetting')}>
          {tabs.map((tab) => (
            <Tab key={tab.id} value={tab.id} id={`user-setting-tab-${tab.id}`} aria-controls="user-setting-panel" label={translate(tab.labelKey)} />
          ))}
        </Tabs>
        <Box role="tabpanel" id="user-setting-panel" aria-labelledby={`user-setting-tab-${shown.id}`} sx={{ p: 2 }}>
          <View mustChangeCode={pending} onPasswordChanged={changed} />
        </Box>
      </Card>
    </Stack>
  );
};
