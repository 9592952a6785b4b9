import { useState } from 'react';
import { Alert, Box, Button, Checkbox, FormControlLabel, FormGroup, Stack, Switch, TextField, Typography } from '@mui/material';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useDataProvider, useNotify, useTranslate } from 'react-admin';
import { ALARM_PRIORITIES, type AlarmPriority } from '../../domain/alarms/rules';
import type { NotificationPreferences, NotificationPreferencesAnswer } from '../../domain/notifications';
import type { ConsoleDataProvider } from '../../providers/dataProvider';

interface Choice {
  priorities: AlarmPriority[];
  address: string;
}

const DEFAULT_QUIET = { from: 22 * 60, to: 7 * 60 };

const asTime = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const asMinutes = (time: string): number => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
};

const choicesOf = (answer: NotificationPreferencesAnswer): Record<number, Choice> =>
  Object.fromEntries(
    answer.channels.map((channel) => {
      const saved = answer.subscriptions.find((subscription) => subscription.channelId === channel.id);
      return [channel.id, { priorities: saved?.priorities ?? [], address: saved?.address ?? '' }];
    }),
  );

/**
 * The user settings' notifications (docs/notifications.md, "Who hears what"): for each channel the super
 * administrator set up, which priorities reach this account there (and, for e-mail, at which address), and
 * its quiet hours in the browser's local time, which high priority ignores. Saved as a whole; the server
 * names a field it refuses.
 */
export const NotificationsTab = () => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error } = useQuery({ queryKey: ['notification-preferences'], queryFn: () => dataProvider.notificationPreferences() });
  if (error) return <Alert severity="error">{translate('app.notifications.loadFailed', { reason: error.message })}</Alert>;
  return data === undefined ? null : <PreferencesForm saved={data} />;
};

const PreferencesForm = ({ saved: data }: { saved: NotificationPreferencesAnswer }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [choices, setChoices] = useState<Record<number, Choice>>(() => choicesOf(data));
  const [quiet, setQuiet] = useState<{ from: number; to: number } | null>(data.quietHours === null ? null : { from: data.quietHours.from, to: data.quietHours.to });
  const save = useMutation({
    mutationFn: (preferences: NotificationPreferences) => dataProvider.saveNotificationPreferences(preferences),
    onSuccess: () => notify('app.notifications.saved', { type: 'success' }),
    onError: (failure: Error) => notify(failure.message, { type: 'error' }),
  });

  const toggle = (channel: number, priority: AlarmPriority, on: boolean) =>
    setChoices((current) => {
      const choice = current[channel] ?? { priorities: [], address: '' };
      const priorities = on ? [...choice.priorities, priority] : choice.priorities.filter((held) => held !== priority);
      return { ...current, [channel]: { ...choice, priorities } };
    });
  const submit = () =>
    save.mutate({
      subscriptions: data.channels.map((channel) => {
        const choice = choices[channel.id] ?? { priorities: [], address: '' };
        return { channelId: channel.id, priorities: choice.priorities, ...(channel.type === 'email' && choice.address !== '' ? { address: choice.address } : {}) };
      }),
      quietHours: quiet === null ? null : { ...quiet, utcOffset: -new Date().getTimezoneOffset() },
    });

  return (
    <Stack spacing={2} data-notifications-tab>
      <Typography color="text.secondary">{translate('app.notifications.intro')}</Typography>
      {data.channels.length === 0 && <Alert severity="info">{translate('app.notifications.noChannels')}</Alert>}
      {data.channels.map((channel) => {
        const choice = choices[channel.id] ?? { priorities: [], address: '' };
        return (
          <Box key={channel.id} component="fieldset" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, px: 2, py: 1 }}>
            <Typography component="legend" variant="subtitle2" sx={{ px: 0.5 }}>
              {channel.name} ({translate(`resources.notification-channels.choices.type.${channel.type}`)})
            </Typography>
            <FormGroup row aria-label={translate('app.notifications.priorities')}>
              {ALARM_PRIORITIES.map((priority) => (
                <FormControlLabel
                  key={priority}
                  control={<Checkbox checked={choice.priorities.includes(priority)} onChange={(event) => toggle(channel.id, priority, event.target.checked)} />}
                  label={translate(`resources.alarms.choices.priority.${priority}`)}
                />
              ))}
            </FormGroup>
            {channel.type === 'email' && (
              <TextField
                size="small"
                type="email"
                label={translate('app.notifications.address')}
                value={choice.address}
                onChange={(event) => setChoices((current) => ({ ...current, [channel.id]: { ...choice, address: event.target.value } }))}
              />
            )}
          </Box>
        );
      })}
      <FormControlLabel
        control={<Switch checked={quiet !== null} onChange={(event) => setQuiet(event.target.checked ? DEFAULT_QUIET : null)} />}
        label={translate('app.notifications.quietHours')}
      />
      <Typography variant="body2" color="text.secondary">
        {translate('app.notifications.quietHoursHint')}
      </Typography>
      {quiet !== null && (
        <Stack direction="row" spacing={2}>
          {(['from', 'to'] as const).map((end) => (
            <TextField
              key={end}
              size="small"
              type="time"
              label={translate(end === 'from' ? 'app.notifications.quietFrom' : 'app.notifications.quietTo')}
              value={asTime(quiet[end])}
              onChange={(event) => setQuiet({ ...quiet, [end]: asMinutes(event.target.value) })}
              slotProps={{ inputLabel: { shrink: true } }}
            />
          ))}
        </Stack>
      )}
      <Box>
        <Button variant="contained" onClick={submit} disabled={save.isPending}>
          {translate('app.notifications.save')}
        </Button>
      </Box>
    </Stack>
  );
};
