import { Button, Chip, Menu, MenuItem, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { DEVICE_STATES } from '../../domain/devices';
import { useDeviceTypes } from '../../resources/device-types/useDeviceTypes';
import type { FleetFilter } from './fleetLayout';

interface Choice<T> {
  value: T;
  label: string;
}

interface FilterChipProps<T> {
  name: string;
  label: string;
  value: T | undefined;
  choices: readonly Choice<T>[];
  onChange: (value: T | undefined) => void;
}

/** One filter as a chip: its label and choice; a click offers "all" and the choices, the cross clears it. */
const FilterChip = <T,>({ name, label, value, choices, onChange }: FilterChipProps<T>) => {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const chosen = choices.find((choice) => choice.value === value);
  const pick = (next: T | undefined) => {
    setAnchor(null);
    onChange(next);
  };
  return (
    <>
      <Chip
        data-filter={name}
        label={`${label}: ${chosen?.label ?? translate('app.tiles.all')}`}
        color={chosen ? 'primary' : 'default'}
        variant={chosen ? 'filled' : 'outlined'}
        onClick={(event) => setAnchor(event.currentTarget)}
        onDelete={chosen ? () => onChange(undefined) : undefined}
      />
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem selected={!chosen} onClick={() => pick(undefined)}>
          {translate('app.tiles.all')}
        </MenuItem>
        {choices.map((choice) => (
          <MenuItem key={String(choice.value)} selected={choice === chosen} onClick={() => pick(choice.value)}>
            {choice.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
};

interface FleetFiltersProps {
  filter: FleetFilter;
  onChange: (filter: FleetFilter) => void;
  sites: string[];
  types: number[];
}

/** The dashboard's filter chips: site, type, state, online, in session, in alarm (docs/monitoring.md). */
export const FleetFilters = ({ filter, onChange, sites, types }: FleetFiltersProps) => {
  const translate = useTranslate();
  const deviceTypes = useDeviceTypes();
  const set = <K extends keyof FleetFilter>(key: K) => (value: FleetFilter[K] | undefined) => onChange({ ...filter, [key]: value });
  const yesNo = (yes: string, no: string): Choice<boolean>[] => [
    { value: true, label: translate(yes) },
    { value: false, label: translate(no) },
  ];
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" alignItems="center" sx={{ mb: 1 }}>
      <FilterChip name="site" label={translate('app.tiles.filters.site')} value={filter.site} choices={sites.map((site) => ({ value: site, label: site }))} onChange={set('site')} />
      <FilterChip
        name="type"
        label={translate('app.tiles.filters.type')}
        value={filter.type}
        choices={types.map((type) => ({ value: type, label: deviceTypes.get(type)?.name ?? translate('app.tiles.typeValue', { type }) }))}
        onChange={set('type')}
      />
      <FilterChip
        name="state"
        label={translate('app.tiles.filters.state')}
        value={filter.state}
        choices={DEVICE_STATES.map((state) => ({ value: state, label: translate(`resources.devices.choices.State.${state}`) }))}
        onChange={set('state')}
      />
      <FilterChip name="online" label={translate('app.tiles.filters.online')} value={filter.online} choices={yesNo('app.monitor.online', 'app.monitor.offline')} onChange={set('online')} />
      <FilterChip name="inSession" label={translate('app.tiles.filters.inSession')} value={filter.inSession} choices={yesNo('app.tiles.sessionYes', 'app.tiles.sessionNo')} onChange={set('inSession')} />
      <FilterChip name="inAlarm" label={translate('app.tiles.filters.inAlarm')} value={filter.inAlarm} choices={yesNo('app.alarmMarks.inAlarm', 'app.alarmMarks.noAlarm')} onChange={set('inAlarm')} />
      {Object.values(filter).some((value) => value !== undefined) && (
        <Button size="small" onClick={() => onChange({})}>
          {translate('app.tiles.clearFilters')}
        </Button>
      )}
    </Stack>
  );
};
