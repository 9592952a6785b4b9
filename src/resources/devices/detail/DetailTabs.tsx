import { useState } from 'react';
import { Box, Paper, Tab, Tabs } from '@mui/material';
import { useCanAccess, useTranslate } from 'react-admin';
import { auditLogConfig } from '../../audit-log/config';
import { ordersConfig } from '../../orders/config';
import { CommandHistory } from './CommandHistory';
import { DeviceAlarms } from './DeviceAlarms';
import { RecentRecords } from './RecentRecords';

type DetailTab = 'alarms' | 'commands' | 'orders' | 'audit';

/**
 * The device's past: its alarms (first: the first question is whether anyone is in danger), its commands with their outcomes, its recent orders (each opening its session
 * report), and its audit trail where the policy lets the role read it.
 */
export const DetailTabs = ({ Id }: { Id: string }) => {
  const translate = useTranslate();
  const [tab, setTab] = useState<DetailTab>('alarms');
  const { canAccess: mayReadAudit } = useCanAccess({ resource: auditLogConfig.name, action: 'list' });
  const tabs: DetailTab[] = mayReadAudit ? ['alarms', 'commands', 'orders', 'audit'] : ['alarms', 'commands', 'orders'];
  return (
    <Paper variant="outlined">
      <Tabs value={tab} onChange={(_, next: DetailTab) => setTab(next)} aria-label={translate('app.detail.tabsLabel')} variant="scrollable" allowScrollButtonsMobile>
        {tabs.map((key) => (
          <Tab key={key} value={key} label={translate(`app.detail.tabs.${key}`)} id={`device-tab-${key}`} aria-controls={`device-tabpanel-${key}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`device-tabpanel-${tab}`} aria-labelledby={`device-tab-${tab}`} sx={{ p: 2, overflowX: 'auto' }}>
        {tab === 'alarms' && <DeviceAlarms Id={Id} />}
        {tab === 'commands' && <CommandHistory Id={Id} />}
        {tab === 'orders' && <RecentRecords config={ordersConfig} filter={{ Id }} columns={['OrderNum', 'SetT', 'OC', 'IsUsed', 'FinishTime']} perPage={10} empty="noOrders" />}
        {tab === 'audit' && <RecentRecords config={auditLogConfig} filter={{ deviceId: Id }} columns={['at', 'actor', 'action', 'targetType', 'targetId']} perPage={20} empty="noAudit" />}
      </Box>
    </Paper>
  );
};
