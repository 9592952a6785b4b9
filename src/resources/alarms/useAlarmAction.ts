import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useNotify, useRefresh, type RaRecord } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { applyAlarmEvent } from '../../providers/alarms';
import type { AlarmAction, AlarmActionBody } from './requests';

interface AlarmActionCall {
  action: AlarmAction;
  body: AlarmActionBody<AlarmAction>;
}

/**
 * An operator's action on one alarm: sent with the data provider, its answer (the alarm after it) applied at
 * once to the console's open alarms (the banner and the counts do not wait for the live event), confirmed in
 * a notification, and the page's queries read again (the list's row, the alarm's page and its history).
 * A refusal is the caller's to show: under a dialog's field, or as a notification.
 */
export const useAlarmAction = (id: RaRecord['id'] | undefined) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ action, body }: AlarmActionCall) => dataProvider.alarmAction(id ?? '', action, body),
    onSuccess: (alarm, { action }) => {
      applyAlarmEvent(queryClient, alarm);
      notify(`crud.alarms.done.${action}`, { type: 'success', messageArgs: { id: alarm.id } });
      refresh();
    },
  });
};
