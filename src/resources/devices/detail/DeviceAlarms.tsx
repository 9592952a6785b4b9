import ExpandLessIcon from '@mui/icons-material/ExpandLess';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Alert, Button, Chip, IconButton, LinearProgress, Table, TableBody, TableCell, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useCanAccess, useDataProvider, useLocaleState, useNotify, useTranslate, type RaRecord } from 'react-admin';
import { isUnacked } from '../../../domain/alarms/open';
import type { AlarmRecord } from '../../../domain/alarms/record';
import { applyAlarmEvent } from '../../../providers/alarms';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { useLiveEvent } from '../../../providers/live';
import { alarmsConfig } from '../../alarms/config';
import { AlarmChip, useAlarmLabels, useAlarmValue } from '../alarms/AlarmMark';
import { AlarmHistory } from './AlarmHistory';

/** Alarms a page: as many as an operator reads at once under the charts. */
const PER_PAGE = 10;
const COLUMNS = ['raisedAt', 'kind', 'state', 'value', 'ackedAt', 'closedAt'] as const;
const nowrap = { whiteSpace: 'nowrap' } as const;

/** Acknowledges one alarm, applying the answer to the tab's open alarms at once (the banner, the marks). */
const AcknowledgeButton = ({ alarm, onDone }: { alarm: AlarmRecord; onDone: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [busy, setBusy] = useState(false);
  const acknowledge = async () => {
    setBusy(true);
    try {
      applyAlarmEvent(queryClient, await dataProvider.alarmAction(alarm.id, 'ack', {}));
      notify('app.alarmMarks.acknowledged', { type: 'success' });
      onDone();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" variant="outlined" disabled={busy} onClick={() => void acknowledge()}>
      {translate('app.alarmMarks.acknowledge')}
    </Button>
  );
};

/**
 * The device's alarms, open and closed, newest raised first, a page at a time; each opens its history of
 * transitions, and one waiting for acknowledgement can be acknowledged here by the roles the policy allows.
 * Read again whenever the live stream reports a change of this device's alarms.
 */
export const DeviceAlarms = ({ Id }: { Id: string }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const labels = useAlarmLabels();
  const valueOf = useAlarmValue();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { canAccess: mayAcknowledge } = useCanAccess({ resource: 'alarms', action: 'acknowledge' });
  const [page, setPage] = useState(0);
  const [open, setOpen] = useState<number | undefined>(undefined);
  const { data, error, isPending, refetch } = useQuery({
    queryKey: ['alarms', 'of-device', Id, page],
    queryFn: async () => {
      // A list of one Id matches it exactly; the Id alone would match every device whose Id contains it.
      const { data, total } = await dataProvider.getList<AlarmRecord & RaRecord>(alarmsConfig.name, {
        filter: { deviceId: [Id] },
        sort: { field: 'raisedAt', order: 'DESC' },
        pagination: { page: page + 1, perPage: PER_PAGE },
      });
      return { data, total: total ?? data.length };
    },
    placeholderData: keepPreviousData,
  });
  useLiveEvent('alarm', (alarm) => {
    if (alarm.deviceId === Id) void refetch();
  });
  if (isPending) return <LinearProgress />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (data.total === 0) return <Typography color="text.secondary">{translate('app.alarmMarks.noAlarms')}</Typography>;
  const time = (at: number | null) => (at === null ? '—' : new Date(at).toLocaleString(locale));
  const cell = (alarm: AlarmRecord, column: (typeof COLUMNS)[number]) => {
    switch (column) {
      case 'raisedAt':
        return time(alarm.raisedAt);
      case 'kind':
        return <AlarmChip alarm={alarm} />;
      case 'state':
        return <Chip size="small" variant={alarm.state === 'closed' ? 'outlined' : 'filled'} label={labels.choices.state[alarm.state]} />;
      case 'value': {
        const [value, threshold] = [valueOf(alarm), valueOf(alarm, alarm.threshold)];
        return value === '' ? '—' : translate('app.alarmMarks.valueAgainst', { value, threshold: threshold || '—' });
      }
      case 'ackedAt':
        return alarm.ackedAt === null ? '—' : `${time(alarm.ackedAt)} · ${alarm.ackedBy ?? ''}`;
      case 'closedAt':
        return time(alarm.closedAt);
    }
  };
  return (
    <>
      <Table size="small" aria-label={translate('app.detail.tabs.alarms')}>
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            {COLUMNS.map((column) => (
              <TableCell key={column} sx={nowrap}>
                {column === 'value' ? translate('app.alarmMarks.valueColumn') : labels.fields[column]}
              </TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {data.data.map((alarm) => {
            const expanded = open === alarm.id;
            return (
              <Fragment key={alarm.id}>
                <TableRow data-alarm-row={alarm.id} hover onClick={() => setOpen(expanded ? undefined : alarm.id)} sx={{ cursor: 'pointer' }}>
                  <TableCell padding="checkbox">
                    <IconButton size="small" aria-expanded={expanded} aria-label={translate(expanded ? 'app.alarmMarks.hideHistory' : 'app.alarmMarks.showHistory')}>
                      {expanded ? <ExpandLessIcon /> : <ExpandMoreIcon />}
                    </IconButton>
                  </TableCell>
                  {COLUMNS.map((column) => (
                    <TableCell key={column} sx={nowrap}>
                      {cell(alarm, column)}
                    </TableCell>
                  ))}
                  <TableCell onClick={(event) => event.stopPropagation()}>
                    {mayAcknowledge && isUnacked(alarm) && <AcknowledgeButton alarm={alarm} onDone={() => void refetch()} />}
                  </TableCell>
                </TableRow>
                {expanded && (
                  <TableRow>
                    <TableCell colSpan={COLUMNS.length + 2} sx={{ pl: 7 }}>
                      <AlarmHistory alarm={alarm} />
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={data.total}
        page={page}
        onPageChange={(_, next) => setPage(next)}
        rowsPerPage={PER_PAGE}
        rowsPerPageOptions={[]}
        labelDisplayedRows={({ from, to, count }) => translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })}
        getItemAriaLabel={(type) => translate(`ra.navigation.${type}`)}
      />
    </>
  );
};
