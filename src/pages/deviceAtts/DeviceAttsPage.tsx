import TableRowsIcon from '@mui/icons-material/TableRows';
import ViewModuleIcon from '@mui/icons-material/ViewModule';
import { Box, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useDeferredValue, useMemo } from 'react';
import { CanAccess, Datagrid, ExportButton, FilterButton, List, Pagination, TopToolbar, useListContext, useStore, useTranslate } from 'react-admin';
import { useDeviceTypes } from '../../resources/device-types/useDeviceTypes';
import { DeviceCommands } from '../../resources/devices/DeviceCommands';
import { devicesConfig } from '../../resources/devices/config';
import { csvExporter } from '../../resources/generate/exporter';
import { fieldElement } from '../../resources/generate/fields';
import { filterElements } from '../../resources/generate/filters';
import { useLabels } from '../../resources/generate/labels';
import { shows } from '../../resources/model';
import type { FleetDevice } from '../monitorDashboard/fleetLayout';
import { DeviceCard } from './DeviceCard';
import { DEVICE_ATTS_VIEW_KEY, DEVICE_ATTS_VIEWS, type DeviceAttsView } from './deviceAttsView';

/** The device attributes of docs/product.md, in its order: id, name, location, type, status, switch permission, update time, current running order. */
const DEVICE_ATTS = ['Id', 'name', 'Location', 'Type', 'State', 'Permission', 'UpdateTime', 'OrderNum'] as const;

/** The device list's configuration limited to those attributes: its columns, filters and CSV. */
const deviceAttsConfig = { ...devicesConfig, fields: Object.fromEntries(DEVICE_ATTS.map((source) => [source, devicesConfig.fields[source]])) };

const VIEW_ICONS = { table: TableRowsIcon, cards: ViewModuleIcon } as const;

const ViewSwitch = ({ view, onChange }: { view: DeviceAttsView; onChange: (view: DeviceAttsView) => void }) => {
  const translate = useTranslate();
  return (
    <ToggleButtonGroup size="small" exclusive value={view} onChange={(_, next: DeviceAttsView | null) => next && onChange(next)} aria-label={translate('app.deviceAtts.view')}>
      {DEVICE_ATTS_VIEWS.map((name) => {
        const Icon = VIEW_ICONS[name];
        return (
          <ToggleButton key={name} value={name} aria-label={translate(`app.deviceAtts.views.${name}`)} title={translate(`app.deviceAtts.views.${name}`)}>
            <Icon fontSize="small" />
          </ToggleButton>
        );
      })}
    </ToggleButtonGroup>
  );
};

/** The device commands as the table's last column; `label` is its header, read by the Datagrid. */
const RowCommands = (_: { label: string }) => <DeviceCommands />;

/**
 * The card view: a card per chamber of the current page. The page's records are a deferred value, so a
 * refetch or a burst of patches that changes many cards is rendered in slices, not as one long task
 * (as the generated lists' rows: StableDatagridBody).
 */
const DeviceCards = () => {
  const translate = useTranslate();
  const data = useDeferredValue(useListContext<FleetDevice>().data);
  const deviceTypes = useDeviceTypes();
  if (data?.length === 0) return <Typography sx={{ p: 2 }} color="text.secondary">{translate('app.monitor.empty')}</Typography>;
  return (
    <Box data-testid="device-cards" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(300px, 1fr))', gap: 1.5, p: 1.5 }}>
      {data?.map((record) => <DeviceCard key={record.id} record={record} typeName={deviceTypes.get(record.Type)?.name} />)}
    </Box>
  );
};

/**
 * `/list/device-atts` (device status): the device attribute query as a table or as cards, one switch
 * between them; both are live (the device list's cache is patched by the live stream) and scoped by the server.
 */
export const DeviceAttsPage = () => {
  const translate = useTranslate();
  const labels = useLabels(deviceAttsConfig);
  const [view, setView] = useStore<DeviceAttsView>(DEVICE_ATTS_VIEW_KEY, 'table');
  // Stable across renders, so react-admin's filter form and export keep their state.
  const filters = useMemo(() => filterElements(deviceAttsConfig, labels, translate), [labels, translate]);
  const exporter = useMemo(() => csvExporter(deviceAttsConfig), []);
  return (
    <List
      resource={devicesConfig.name}
      storeKey="device-atts"
      title={translate('app.menu.deviceAtts')}
      filters={filters}
      actions={
        <TopToolbar sx={{ alignItems: 'center' }}>
          <ViewSwitch view={view} onChange={setView} />
          <FilterButton />
          <CanAccess action="export">
            <ExportButton />
          </CanAccess>
        </TopToolbar>
      }
      sort={devicesConfig.defaultSort}
      perPage={25}
      exporter={exporter}
      pagination={<Pagination rowsPerPageOptions={[10, 25, 50, 100]} />}
    >
      {view === 'cards' ? (
        <DeviceCards />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          {DEVICE_ATTS.map((source) => fieldElement(deviceAttsConfig, source, devicesConfig.fields[source], labels, shows(devicesConfig.fields[source], 'sort')))}
          <RowCommands label={translate('crud.list.actions')} />
        </Datagrid>
      )}
    </List>
  );
};
