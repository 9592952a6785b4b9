import { Alert, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../domain/alarms/record';
import { useAlarmTransitions } from './useAlarmTransitions';

const oneLine = { whiteSpace: 'nowrap' } as const;

/** The alarm page's history of transitions (useAlarmTransitions): when, from → to, who, and the comment or reason. */
export const AlarmHistory = () => {
  const record = useRecordContext<AlarmRecord>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, error, change, actor } = useAlarmTransitions(record);
  return (
    <Card variant="outlined" sx={{ m: 2 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {translate('crud.alarms.history')}
        </Typography>
        {error && <Alert severity="error">{translate('crud.alarms.historyFailed', { reason: error.message })}</Alert>}
        {data?.length === 0 && <Typography color="text.secondary">{translate('crud.alarms.noHistory')}</Typography>}
        {data && data.length > 0 && (
          <Table size="small" aria-label={translate('crud.alarms.history')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('crud.alarms.at')}</TableCell>
                <TableCell>{translate('crud.alarms.change')}</TableCell>
                <TableCell>{translate('crud.alarms.actor')}</TableCell>
                <TableCell>{translate('crud.alarms.comment')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((transition) => (
                <TableRow key={transition.id}>
                  <TableCell sx={oneLine}>{new Date(transition.at).toLocaleString(locale)}</TableCell>
                  <TableCell>{change(transition)}</TableCell>
                  <TableCell sx={oneLine}>{actor(transition)}</TableCell>
                  <TableCell>{transition.comment ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
};
