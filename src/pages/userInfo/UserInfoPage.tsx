import { useState } from 'react';
import { Box, Card, Stack, Tab, Tabs } from '@mui/material';
import { Loading, Title, useGetIdentity, useTranslate } from 'react-admin';
import type { SignedInUser } from '../../providers/authProvider';
import { AccountOverview } from './AccountOverview';
import { ManagedDevicesTab } from './ManagedDevicesTab';
import { TeamTab } from './TeamTab';

const TABS = ['project', 'team'] as const;
type UserInfoTab = (typeof TABS)[number];

/**
 * `/user/info`: the signed-in account's overview, then its devices (project tab) and the accounts
 * below it (team tab), all as the server scopes them to this account.
 */
export const UserInfoPage = () => {
  const translate = useTranslate();
  const { identity, isPending } = useGetIdentity();
  const [tab, setTab] = useState<UserInfoTab>('project');
  if (isPending || !identity) return <Loading />;
  const user = identity as unknown as SignedInUser;
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Title title={translate('app.menu.userInfo')} />
      <AccountOverview user={user} />
      <Card>
        <Tabs value={tab} onChange={(_, next: UserInfoTab) => setTab(next)} aria-label={translate('app.menu.userInfo')}>
          {TABS.map((id) => (
            <Tab key={id} value={id} id={`user-info-tab-${id}`} label={translate(`app.userInfo.tabs.${id}`)} />
          ))}
        </Tabs>
        <Box role="tabpanel" aria-labelledby={`user-info-tab-${tab}`} sx={{ p: 2 }}>
          {tab === 'project' ? <ManagedDevicesTab /> : <TeamTab user={user} />}
        </Box>
      </Card>
    </Stack>
  );
};
