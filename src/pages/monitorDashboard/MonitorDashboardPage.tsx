import { Alert, Box, Typography } from '@mui/material';
import { useCallback, useLayoutEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { Loading, Title, useCreatePath, useStore, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useStandingAlarmsByDevice } from '../../providers/alarms';
import { FleetFilters } from './FleetFilters';
import { groupFleet, presentValues, type FleetFilter } from './fleetLayout';
import { FleetStore } from './fleetStore';
import { TileGrid } from './TileGrid';
import { useFleet } from './useFleet';

/**
 * `/dashboard/monitor`: a tile per chamber in the viewer's scope, live, grouped by site with the chambers
 * that need attention first, filtered by chips; a tile opens the chamber's page (docs/monitoring.md).
 */
export const MonitorDashboardPage = () => {
  const translate = useTranslate();
  const [store] = useState(() => new FleetStore());
  const { error } = useFleet(store);
  const [filter, setFilter] = useStore<FleetFilter>('monitor-dashboard.filter', {});
  // The tab's standing alarms go to the store, which tells only the tiles whose alarms changed.
  const standing = useStandingAlarmsByDevice();
  useLayoutEffect(() => store.setAlarms(standing), [store, standing]);
  // The grid follows the layout (sites, states, sessions, presence, alarms), never a reading.
  const layout = useSyncExternalStore(store.subscribeLayout, store.layout);
  const { groups, sites, types } = useMemo(
    () => ({
      layout,
      groups: groupFleet(store.all(), filter, store.alarms),
      sites: presentValues(store.all(), (device) => device.Location),
      types: presentValues(store.all(), (device) => device.Type),
    }),
    [store, layout, filter],
  );
  const createPath = useCreatePath();
  const navigate = useNavigate();
  const open = useCallback((id: string) => navigate(createPath({ resource: 'devices', id, type: 'show' })), [navigate, createPath]);
  const shown = groups.reduce((sum, group) => sum + group.ids.length, 0);

  return (
    <Box sx={{ mt: 1 }}>
      <Title title={translate('app.menu.monitorDashboard')} />
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 2, flexWrap: 'wrap' }}>
        <FleetFilters filter={filter} onChange={setFilter} sites={sites} types={types} />
        <Typography variant="body2" color="text.secondary" data-testid="tile-count">
          {translate('app.tiles.count', { shown, total: store.size })}
        </Typography>
      </Box>
      {error ? <Alert severity="error">{translate('app.tiles.failed')}</Alert> : null}
      {/* The layout's version moves from 0 when the scope is first loaded into the store. */}
      {layout === 0 && !error ? (
        <Loading />
      ) : shown === 0 ? (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {translate('app.tiles.empty')}
        </Typography>
      ) : (
        <TileGrid groups={groups} store={store} onOpen={open} />
      )}
    </Box>
  );
};
