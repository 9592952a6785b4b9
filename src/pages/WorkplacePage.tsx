import { Card, CardContent, Chip, List, ListItemButton, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import { Loading, Title, useGetIdentity, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { SignedInUser } from '../providers/authProvider';
import { menuRoutesFor } from '../domain/menu';
import { ROUTE_ICONS } from '../routes/routeIcons';

/** The landing page: who is signed in, with which role and level, and what they may use. */
export const WorkplacePage = () => {
  const translate = useTranslate();
  const { identity, isPending } = useGetIdentity();
  if (isPending || !identity) return <Loading />;
  const user = identity as unknown as SignedInUser;
  const roleName = translate(`app.roles.${user.role}`);
  const facts: [string, string][] = [
    [translate('app.workplace.account'), user.Account],
    [translate('app.workplace.role'), roleName],
    [translate('app.workplace.level'), translate('app.workplace.levelValue', { level: user.Level, name: roleName })],
    [translate('app.workplace.upperAdmin'), user.SubAdmin ?? translate('app.workplace.none')],
  ];
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Title title={translate('app.menu.workplace')} />
      <Card>
        <CardContent>
          <Typography variant="h5" gutterBottom data-testid="welcome">
            {translate('app.workplace.welcome', { account: user.Account })}
          </Typography>
          <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
            {facts.map(([label, value]) => (
              <Chip key={label} label={`${label}: ${value}`} data-testid={`fact-${label}`} />
            ))}
          </Stack>
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6">{translate('app.workplace.menuTitle')}</Typography>
          <List dense>
            {menuRoutesFor(user.role)
              .filter((route) => route.group !== 'exception' && route.group !== 'dashboard')
              .map(({ path, labelKey }) => {
                const Icon = ROUTE_ICONS[path];
                return (
                  <ListItemButton key={path} component={Link} to={path}>
                    <ListItemIcon>
                      <Icon />
                    </ListItemIcon>
                    <ListItemText primary={translate(labelKey)} />
                  </ListItemButton>
                );
              })}
          </List>
        </CardContent>
      </Card>
    </Stack>
  );
};
