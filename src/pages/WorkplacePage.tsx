import { Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { Suspense } from 'react';
import { Loading, Title, useGetIdentity, useTranslate } from 'react-admin';
import type { SignedInUser } from '../providers/authProvider';
import { lazyView } from '../loading/lazyView';
import { FleetFigures } from './workplace/FleetFigures';
import { MyChambers } from './workplace/MyChambers';
import { useFleetSummary } from './workplace/useFleetSummary';

const UtilisationChart = lazyView(() => import('./workplace/UtilisationChart').then((module) => module.UtilisationChart));

/** Who is signed in, with which role and level. */
const Welcome = ({ user }: { user: SignedInUser }) => {
  const translate = useTranslate();
  const roleName = translate(`app.roles.${user.role}`);
  const facts: [string, string][] = [
    [translate('app.workplace.role'), roleName],
    [translate('app.workplace.level'), translate('app.workplace.levelValue', { level: user.Level, name: roleName })],
    [translate('app.workplace.upperAdmin'), user.SubAdmin ?? translate('app.workplace.none')],
  ];
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center">
      <Typography variant="h5" component="h1" data-testid="welcome" sx={{ mr: 1 }}>
        {translate('app.workplace.welcome', { account: user.Account })}
      </Typography>
      {facts.map(([label, value]) => (
        <Chip key={label} size="small" label={`${label}: ${value}`} />
      ))}
    </Stack>
  );
};

/** The fleet's figures now and today, each a link to its filtered list, and the utilisation over the day. */
const FleetOverview = ({ role }: { role: SignedInUser['role'] }) => {
  const translate = useTranslate();
  const { data, error } = useFleetSummary();
  if (error) return <Typography color="error">{translate('app.workplace.failed')}</Typography>;
  if (!data) return <Loading />;
  return (
    <>
      <FleetFigures summary={data} role={role} />
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2">
            {translate('app.workplace.utilisation')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate('app.workplace.utilisationHint')}
          </Typography>
          <Suspense fallback={<Loading />}>
            <UtilisationChart utilisation={data.utilisation} />
          </Suspense>
        </CardContent>
      </Card>
    </>
  );
};

/** The landing page (docs/monitoring.md, "The workplace"): who is signed in, the fleet's live figures, my chambers. */
export const WorkplacePage = () => {
  const translate = useTranslate();
  const { identity, isPending } = useGetIdentity();
  if (isPending || !identity) return <Loading />;
  const user = identity as unknown as SignedInUser;
  return (
    <Stack spacing={3} sx={{ mt: 2, mb: 2 }}>
      <Title title={translate('app.menu.workplace')} />
      <Welcome user={user} />
      <FleetOverview role={user.role} />
      <MyChambers />
    </Stack>
  );
};
