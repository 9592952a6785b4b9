import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../../domain/alarms/record';
import { MARK_LOOK } from '../../devices/ReadingMark';
import { useTime } from './useTime';

const field = (name: string) => `resources.alarms.fields.${name}`;

/** Its colour and icon, as the readings' marks show a level, kept on paper too (print-color-adjust). */
const Priority = ({ alarm }: { alarm: AlarmRecord }) => {
  const translate = useTranslate();
  const { color, Icon } = MARK_LOOK[alarm.priority];
  return (
    <Box component="span" data-priority={alarm.priority} sx={{ color, fontWeight: 600, display: 'inline-flex', alignItems: 'center', gap: 0.25, printColorAdjust: 'exact' }}>
      <Icon sx={{ fontSize: '1rem' }} />
      {translate(`resources.alarms.choices.priority.${alarm.priority}`)}
    </Box>
  );
};

const valueOf = (value: number | null) => (value === null ? '—' : String(value));

/**
 * The alarms the chamber raised during the session, oldest first (docs/orders.md, "The session report"):
 * when, which rule, its priority, the value against the limit it crossed, who acknowledged it and when,
 * and when it closed (or the state it is still in).
 */
export const AlarmsRaised = ({ alarms }: { alarms: readonly AlarmRecord[] }) => {
  const translate = useTranslate();
  const time = useTime();
  if (alarms.length === 0) return <Typography variant="body2">{translate('crud.orders.noAlarms')}</Typography>;
  return (
    <Table size="small" data-testid="report-alarms">
      <TableHead>
        <TableRow>
          <TableCell>{translate(field('raisedAt'))}</TableCell>
          <TableCell>{translate(field('kind'))}</TableCell>
          <TableCell>{translate(field('priority'))}</TableCell>
          <TableCell>{translate('crud.orders.valueThreshold')}</TableCell>
          <TableCell>{translate('crud.orders.acknowledged')}</TableCell>
          <TableCell>{translate(field('closedAt'))}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {alarms.map((alarm) => (
          <TableRow key={alarm.id} data-alarm={alarm.id}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{time(alarm.raisedAt)}</TableCell>
            <TableCell>{translate(`resources.alarms.choices.kind.${alarm.kind}`)}</TableCell>
            <TableCell>
              <Priority alarm={alarm} />
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>{`${valueOf(alarm.value)} / ${valueOf(alarm.threshold)}`}</TableCell>
            <TableCell>
              {alarm.ackedAt === null ? '—' : translate('crud.orders.acknowledgedBy', { account: alarm.ackedBy ?? '—', time: time(alarm.ackedAt) })}
            </TableCell>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {alarm.closedAt === null ? translate(`resources.alarms.choices.state.${alarm.state}`) : time(alarm.closedAt)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
};
