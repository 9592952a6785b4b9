import { useMemo } from 'react';
import { FilterButton, List, Pagination, TopToolbar, useTranslate } from 'react-admin';
import { devicesConfig } from '../../resources/devices/config';
import { filterElements } from '../../resources/generate/filters';
import { useLabels } from '../../resources/generate/labels';
import { MonitorTable } from './MonitorTable';

/** The filters an operator narrows the fleet by, in this order (docs/monitoring.md). */
const MONITOR_FILTERS = ['Location', 'Type', 'State', 'Online', 'InSession'] as const;

/** The device list's configuration limited to the monitor's filters (the first always shown, the others added). */
const monitorFilterConfig = { ...devicesConfig, fields: Object.fromEntries(MONITOR_FILTERS.map((source) => [source, devicesConfig.fields[source]])) };

/**
 * `/list/oxygen-monitor`: every chamber in the viewer's scope with its latest readings, live (docs/monitoring.md).
 * Its own store key keeps its page, sort and filters apart from the device manager's.
 */
export const OxygenMonitorPage = () => {
  const translate = useTranslate();
  const labels = useLabels(devicesConfig);
  // Stable across renders, so react-admin's filter form keeps its state.
  const filters = useMemo(() => filterElements(monitorFilterConfig, labels, translate), [labels, translate]);
  return (
    <List
      resource={devicesConfig.name}
      storeKey="oxygen-monitor"
      title={translate('app.menu.oxygenMonitor')}
      filters={filters}
      actions={
        <TopToolbar>
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
