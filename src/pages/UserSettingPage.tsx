import type { ReactNode } from 'react';
import { Alert, AlertTitle, Card, CardContent, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { Title, useTranslate } from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { useConsoleConfig } from '../ConsoleConfigContext';
import { mustChangeCode, passwordChanged } from '../providers/authProvider';
import { afterLoginPath } from '../providers/loginPath';
import { ChangePasswordForm } from './ChangePasswordForm';
import { NotificationsTab } from './userSetting/NotificationsTab';

/** One part of the settings page: a titled card. Later parts (the settings drawer of docs/product.md) are added the same way. */
const Section = ({ title, id, children }: { title: string; id: string; children: ReactNode }) => (
  <Card component="section" aria-labelledby={id}>
    <CardContent>
      <Typography variant="h6" component="h2" id={id} gutterBottom>
        {title}
      </Typography>
      {children}
    </CardContent>
  </Card>
);

/**
 * `/user/setting`: the user's own settings; for now, changing one's password. It is also where an
 * account whose password was reset is sent after sign-in: it says why, and once the new password is
 * accepted the console opens again and goes on to the page the user asked for (`redirect`).
 */
export const UserSettingPage = () => {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { landingPath } = useConsoleConfig();
  const queryClient = useQueryClient();
  const pending = mustChangeCode();

  const changed = () => {
    if (!mustChangeCode()) return;
    passwordChanged();
    // Access answered while the console was closed (canAccess said no) must not outlive it.
    void queryClient.invalidateQueries({ queryKey: ['auth'] });
    navigate(afterLoginPath(search, landingPath), { replace: true });
  };

  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Title title={translate('app.menu.userSetting')} />
      {pending && (
        <Alert severity="warning" data-testid="must-change-code">
          <AlertTitle>{translate('app.password.mustChangeTitle')}</AlertTitle>
          {translate('app.password.mustChangeBody')}
        </Alert>
      )}
      <Section id="settings-password" title={translate('app.settings.password')}>
        <ChangePasswordForm onChanged={changed} />
      </Section>
      {!pending && <Section id="settings-notifications" title={translate('app.notifications.title')}><NotificationsTab /></Section>}
    </Stack>
  );
};
