import { Alert, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { alarmsConfig } from './config';

const oneLine = { whiteSpace: 'nowrap' } as const;

/**
 * An alarm's transitions, oldest first (`GET /api/v1/alarms/{id}/history`): when, from → to with the states'
 * labels, who (an account, or the server as "system"), and the comment or reason. Keyed under the alarms'
 * queries, so the live cache's alarm refresh and an action's refresh read it again.
 */
export const AlarmHistory = () => {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const id = record?.id;
  const { data, error } = useQuery({
    queryKey: [alarmsConfig.name, 'history', id],
    queryFn: () => dataProvider.alarmHistory(id ?? ''),
    enabled: id !== undefined,
  });
  const state = (value: string) => translate(`resources.alarms.choices.state.${value}`);
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
                  <TableCell>
                    {transition.from === null ? translate('crud.alarms.raised') : state(transition.from)} → {state(transition.to)}
                  </TableCell>
                  <TableCell sx={oneLine}>{transition.actor === 'system' ? translate('crud.alarms.system') : transition.actor}</TableCell>
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
