import { Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { SignedInUser } from '../../providers/authProvider';
import { useAccountCounts } from './accountScope';

/** The overview: who the account is, where it sits in the hierarchy, and how much it manages. */
export const AccountOverview = ({ user }: { user: SignedInUser }) => {
  const translate = useTranslate();
  const counts = useAccountCounts(user.role, user.Level);
  const count = (total: number | undefined) => (total === undefined ? '…' : String(total));
  const facts: [string, string, string][] = [
    ['account', translate('app.userInfo.account'), user.Account],
    ['level', translate('app.userInfo.level'), translate(`resources.accounts.choices.Level.${user.Level}`)],
    ['role', translate('app.userInfo.role'), translate(`app.roles.${user.role}`)],
    ['upper-admin', translate('app.userInfo.upperAdmin'), user.SubAdmin ?? translate('app.userInfo.none')],
    ['devices', translate('app.userInfo.deviceCount'), count(counts.devices)],
    ['team', translate('app.userInfo.teamCount'), count(counts.team)],
  ];
  return (
    <Card component="section" aria-labelledby="user-info-overview">
      <CardContent>
        <Typography variant="h6" component="h2" id="user-info-overview" gutterBottom>
          {translate('app.userInfo.overview')}
        </Typography>
        <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
          {facts.map(([id, label, value]) => (
            <Chip key={id} label={`${label}: ${value}`} data-testid={`user-info-${id}`} />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
};
