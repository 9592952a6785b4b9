import { FormControlLabel, Switch } from '@mui/material';
import { useMemo } from 'react';
import { FilterButton, List, Pagination, TopToolbar, useListContext, useStore, useTranslate } from 'react-admin';
import { useStandingAlarmsByDevice } from '../../providers/alarms';
import { devicesConfig } from '../../resources/devices/config';
import { filterElements } from '../../resources/generate/filters';
import { useLabels } from '../../resources/generate/labels';
import { MonitorTable } from './MonitorTable';

/** The filters an operator narrows the fleet by, in this order (docs/monitoring.md). */
const MONITOR_FILTERS = ['Location', 'Type', 'State', 'Online', 'InSession'] as const;

/** The device list's configuration limited to the monitor's filters (the first always shown, the others added). */
const monitorFilterConfig = { ...devicesConfig, fields: Object.fromEntries(MONITOR_FILTERS.map((source) => [source, devicesConfig.fields[source]])) };

/** Where the "in alarm" switch is kept, beside the monitor's own list state. */
const IN_ALARM_KEY = 'oxygen-monitor.inAlarm';

/** The "in alarm only" switch; turning it back to the first page, where the narrowed list starts. */
const InAlarmSwitch = () => {
  const translate = useTranslate();
  const { setPage } = useListContext();
  const [inAlarm, setInAlarm] = useStore(IN_ALARM_KEY, false);
  return (
    <FormControlLabel
      control={
        <Switch
          size="small"
          checked={inAlarm}
          onChange={(_, checked) => {
            setInAlarm(checked);
            setPage(1);
          }}
        />
      }
      label={translate('app.alarmMarks.inAlarmOnly')}
    />
  );
};

/**
 * `/list/oxygen-monitor`: every chamber in the viewer's scope with its latest readings and standing alarms,
 * live (docs/monitoring.md). Its own store key keeps its page, sort and filters apart from the device manager's.
 */
export const OxygenMonitorPage = () => {
  const translate = useTranslate();
  const labels = useLabels(devicesConfig);
  // Stable across renders, so react-admin's filter form keeps its state.
  const filters = useMemo(() => filterElements(monitorFilterConfig, labels, translate), [labels, translate]);
  const [inAlarm] = useStore(IN_ALARM_KEY, false);
  // "In alarm" asks the server for the chambers the tab holds standing alarms of (a filter on their Ids, in
  // scope like every list); the list is asked again only when that set of chambers changes.
  const standing = useStandingAlarmsByDevice();
  const alarmed = [...standing.keys()].sort().join('\n');
  const inAlarmFilter = useMemo(() => (inAlarm ? { Id: alarmed === '' ? [] : alarmed.split('\n') } : undefined), [inAlarm, alarmed]);
  return (
    <List
      resource={devicesConfig.name}
      storeKey="oxygen-monitor"
      title={translate('app.menu.oxygenMonitor')}
      filters={filters}
      filter={inAlarmFilter}
      actions={
        <TopToolbar sx={{ alignItems: 'center' }}>
          <InAlarmSwitch />
          <FilterButton />
        </TopToolbar>
      }
      sort={devicesConfig.defaultSort}
      perPage={25}
      exporter={false}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    >
      <MonitorTable />
    </List>
  );
};
