import { Alert, Card, CardContent, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../domain/alarms/record';
import type { AlarmDelivery } from '../../domain/notifications';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { alarmsConfig } from './config';

const TONES: Record<AlarmDelivery['status'], 'success' | 'warning' | 'error' | 'default' | 'info'> = {
  sent: 'success',
  pending: 'warning',
  sending: 'info',
  failed: 'error',
  cancelled: 'default',
};

/**
 * The alarm page's notifications beyond the console (docs/notifications.md): each delivery's channel,
 * recipient, why it was sent, and its outcome with the receiver's last answer. Keyed under the alarms'
 * queries, so the live cache's alarm refresh reads it again.
 */
export const AlarmDeliveries = () => {
  const record = useRecordContext<AlarmRecord>();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error } = useQuery({
    queryKey: [alarmsConfig.name, 'notifications', record?.id, record?.state],
    queryFn: () => dataProvider.alarmNotifications(record?.id ?? ''),
    enabled: record !== undefined,
    placeholderData: keepPreviousData,
  });
  const title = translate('app.notifications.deliveries');
  return (
    <Card variant="outlined" sx={{ m: 2 }} data-alarm-deliveries>
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {title}
        </Typography>
        {error && <Alert severity="error">{translate('app.notifications.deliveriesFailed', { reason: error.message })}</Alert>}
        {data?.length === 0 && <Typography color="text.secondary">{translate('app.notifications.noDeliveries')}</Typography>}
        {data && data.length > 0 && (
          <Table size="small" aria-label={title}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('crud.alarms.at')}</TableCell>
                <TableCell>{translate('app.notifications.channel')}</TableCell>
                <TableCell>{translate('app.notifications.recipient')}</TableCell>
                <TableCell>{translate('app.notifications.event')}</TableCell>
                <TableCell>{translate('app.notifications.status')}</TableCell>
                <TableCell>{translate('app.notifications.attempts')}</TableCell>
                <TableCell>{translate('app.notifications.answer')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((delivery) => (
                <TableRow key={delivery.id} data-status={delivery.status}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{new Date(delivery.doneAt ?? delivery.createdAt).toLocaleString(locale)}</TableCell>
                  <TableCell>
                    {delivery.channel} ({translate(`resources.notification-channels.choices.type.${delivery.channelType}`)})
                  </TableCell>
                  <TableCell>{delivery.recipient === '' ? translate('app.notifications.group') : delivery.recipient}</TableCell>
                  <TableCell>{translate(`app.notifications.events.${delivery.event}`, { step: delivery.step })}</TableCell>
                  <TableCell>
                    <Chip size="small" color={TONES[delivery.status]} label={translate(`app.notifications.statuses.${delivery.status}`)} />
                  </TableCell>
                  <TableCell>{delivery.attempts}</TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{delivery.answer ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
};
