import { Alert } from '@mui/material';
import { FunctionField, useTranslate } from 'react-admin';
import type { SignedInUser } from '../../providers/authProvider';
import { accountsConfig } from '../../resources/accounts/config';
import { hasTeam, teamFilter } from './accountScope';
import { ScopedList } from './ScopedList';

/** The team tab: the accounts below the signed-in one, with how many devices each manages. */
export const TeamTab = ({ user }: { user: SignedInUser }) => {
  const translate = useTranslate();
  if (!hasTeam(user.role, user.Level)) {
    return (
      <Alert severity="info" data-testid="user-info-no-team">
        {translate('app.userInfo.noTeam')}
      </Alert>
    );
  }
  return (
    <ScopedList config={accountsConfig} sources={['Account', 'Level', 'SubAdmin']} filter={teamFilter(user.Level)}>
      <FunctionField
        label={translate('app.userInfo.deviceCount')}
        render={(record: { DeviceIds?: unknown }) => (Array.isArray(record.DeviceIds) ? record.DeviceIds.length : 0)}
      />
    </ScopedList>
  );
};
