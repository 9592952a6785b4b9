import { Alert, LinearProgress, List, ListItem, ListItemText } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import type { AlarmRecord } from '../../../domain/alarms/record';
import { ALARM_STATES } from '../../../domain/alarms/rules';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { useAlarmLabels } from '../alarms/AlarmMark';

const isState = (value: string | null): value is AlarmRecord['state'] => (ALARM_STATES as readonly (string | null)[]).includes(value);

/** One alarm's transitions, oldest first: when, from which state to which, who (the server: "system"), why. */
export const AlarmHistory = ({ alarm }: { alarm: AlarmRecord }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { choices } = useAlarmLabels();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  // Keyed on the alarm's state too: a new transition is read as soon as the alarm shows it.
  const { data, error, isPending } = useQuery({
    queryKey: ['alarms', 'history', alarm.id, alarm.state, alarm.ackedAt],
    queryFn: () => dataProvider.alarmHistory(alarm.id),
  });
  if (isPending) return <LinearProgress />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  const state = (value: string | null) => (value === null ? translate('app.alarmMarks.newAlarm') : isState(value) ? choices.state[value] : value);
  return (
    <List dense disablePadding aria-label={translate('app.alarmMarks.history', { id: alarm.id })} data-alarm-history={alarm.id}>
      {data.map((step) => (
        <ListItem key={step.id} disableGutters>
          <ListItemText
            primary={translate('app.alarmMarks.transition', { from: state(step.from), to: state(step.to) })}
            secondary={[
              new Date(step.at).toLocaleString(locale),
              step.actor === 'system' ? translate('app.alarmMarks.system') : step.actor,
              step.comment ?? '',
            ]
              .filter(Boolean)
              .join(' · ')}
          />
        </ListItem>
      ))}
    </List>
  );
};
