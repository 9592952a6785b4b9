import { Alert, LinearProgress, List, ListItem, ListItemText } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../../domain/alarms/record';
import { useAlarmTransitions } from '../../alarms/useAlarmTransitions';

/** One alarm's transitions in the device detail's alarms tab (useAlarmTransitions): when, from → to, who, why. */
export const AlarmHistory = ({ alarm }: { alarm: AlarmRecord }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { data, error, isPending, change, actor } = useAlarmTransitions(alarm);
  if (isPending) return <LinearProgress />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  return (
    <List dense disablePadding aria-label={translate('app.alarmMarks.history', { id: alarm.id })} data-alarm-history={alarm.id}>
      {data.map((step) => (
        <ListItem key={step.id} disableGutters>
          <ListItemText
            primary={change(step)}
            secondary={[new Date(step.at).toLocaleString(locale), actor(step), step.comment ?? '']
              .filter(Boolean)
              .join(' · ')}
          />
        </ListItem>
      ))}
    </List>
  );
};
