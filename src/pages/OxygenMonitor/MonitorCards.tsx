import type { Theme } from '@mui/material';
import { Box } from '@mui/material';
import { memo } from 'react';
import { useTranslate, type Identifier } from 'react-admin';
import type { AlarmRecord } from '../../domain/alarms/record';
import type { DeviceType } from '../../domain/deviceTypes';
import { MONITOR_COLUMNS, monitorColumnLabel, type MonitorColumn } from './columns';
import { MONITOR_CAPTION, type MonitoredDevice } from './monitoredDevice';
import { useMonitorCells } from './useMonitorCells';

/** Who and what the chamber is heads the card; its state, presence and alarms follow; then its values two by two. */
const ID: MonitorColumn = { key: 'Id' };
const NAME: MonitorColumn = { key: 'name' };
const STATE: MonitorColumn = { key: 'State' };
const ONLINE: MonitorColumn = { key: 'Online' };
const ALARMS: MonitorColumn = { key: 'alarms' };
const HEAD = new Set<string>([ID, NAME, STATE, ONLINE, ALARMS].map(({ key }) => key));
const VALUES = MONITOR_COLUMNS.filter(({ key }) => !HEAD.has(key));

/** The cards' looks, styled once on their container (as the table's rows are): a live fleet renders every card each second. */
const cardStyles = (theme: Theme) => ({
  display: 'flex',
  flexDirection: 'column' as const,
  gap: 1,
  p: 1,
  '& .monitor-card': {
    border: `1px solid ${theme.palette.divider}`,
    borderRadius: `${theme.shape.borderRadius}px`,
    padding: theme.spacing(1.5),
    cursor: 'pointer',
    backgroundColor: theme.palette.background.paper,
  },
  '& .monitor-card[data-alarm="high"]': { boxShadow: `inset 4px 0 0 ${theme.palette.error.main}` },
  '& .monitor-card[data-alarm="medium"]': { boxShadow: `inset 4px 0 0 ${theme.palette.warning.main}` },
  '& .monitor-card-head': { display: 'flex', flexWrap: 'wrap' as const, alignItems: 'baseline', columnGap: theme.spacing(1.5), rowGap: theme.spacing(0.5) },
  '& .monitor-card-id': { fontWeight: 600, fontSize: theme.typography.subtitle1.fontSize },
  '& .monitor-card-values': {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    columnGap: theme.spacing(1.5),
    rowGap: theme.spacing(0.5),
    margin: `${theme.spacing(1)} 0 0`,
    fontSize: theme.typography.body2.fontSize,
  },
  '& .monitor-card-values dt': { color: theme.palette.text.secondary, fontSize: theme.typography.caption.fontSize },
  // A value not sent keeps its line, so the pairs stay aligned.
  '& .monitor-card-values dd': { margin: 0, minHeight: '1.43em', fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' as const },
  [`& .${MONITOR_CAPTION}`]: { fontSize: theme.typography.caption.fontSize, color: theme.palette.text.secondary },
});

interface MonitorCardProps {
  record: MonitoredDevice;
  deviceType: DeviceType | undefined;
  alarms: readonly AlarmRecord[];
  onOpen: (id: Identifier) => void;
}

/** One chamber on a phone: the table row's values, one under the other, so cabin O2 is on screen. Memoised as the row is. */
const MonitorCard = memo(function MonitorCard({ record, deviceType, alarms, onOpen }: MonitorCardProps) {
  const translate = useTranslate();
  const cell = useMonitorCells(record, deviceType, alarms);
  return (
    <div className="monitor-card" onClick={() => onOpen(record.id)} data-device={record.Id} data-reading-time={record.Reading?.Time} data-alarm={alarms[0]?.priority}>
      <div className="monitor-card-head">
        <span className="monitor-card-id">{cell(ID)}</span>
        <span>{cell(NAME)}</span>
        <span>{cell(STATE)}</span>
        <span>{cell(ONLINE)}</span>
        {alarms.length > 0 && <span>{cell(ALARMS)}</span>}
      </div>
      <dl className="monitor-card-values">
        {VALUES.map((entry) => (
          <div key={entry.key} data-column={entry.key}>
            <dt>{monitorColumnLabel(translate, entry)}</dt>
            <dd>{cell(entry)}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
});

interface MonitorCardsProps {
  rows: readonly MonitoredDevice[];
  deviceTypes: ReadonlyMap<number, DeviceType>;
  standing: ReadonlyMap<string, readonly AlarmRecord[]>;
  onOpen: (id: Identifier) => void;
}

const NO_ALARMS: readonly AlarmRecord[] = [];

/** The oxygen monitor on a phone: a card per chamber instead of a table of nineteen columns. */
export const MonitorCards = ({ rows, deviceTypes, standing, onOpen }: MonitorCardsProps) => (
  <Box sx={cardStyles} data-monitor-cards>
    {rows.map((record) => (
      <MonitorCard key={record.id} record={record} deviceType={deviceTypes.get(record.Type)} alarms={standing.get(record.Id) ?? NO_ALARMS} onOpen={onOpen} />
    ))}
  </Box>
);
