import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { AlarmRecord, AlarmTransition } from '../../domain/alarms/record';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { alarmsConfig } from './config';

/**
 * An alarm's transitions, oldest first (`GET /api/v1/alarms/{id}/history`), and how each reads: from → to
 * with the states' labels (the first "raised"), and who (an account, or the server as "system"). Keyed
 * under the alarms' queries, so the live cache's alarm refresh reads it again, and on the alarm's state and
 * acknowledgement, so a change the screen already shows is read at once. The alarm page and the device
 * detail's alarms tab both show it.
 */
export const useAlarmTransitions = (alarm: Pick<AlarmRecord, 'id' | 'state' | 'ackedAt'> | undefined) => {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const query = useQuery({
    queryKey: [alarmsConfig.name, 'history', alarm?.id, alarm?.state, alarm?.ackedAt],
    queryFn: () => dataProvider.alarmHistory(alarm?.id ?? ''),
    enabled: alarm !== undefined,
    // The transitions shown stay while the alarm's next ones are read.
    placeholderData: keepPreviousData,
  });
  const state = (value: string) => translate(`resources.alarms.choices.state.${value}`);
  return {
    ...query,
    // A step of the notifications' escalation leaves the state as it was (docs/notifications.md).
    change: (step: AlarmTransition) =>
      step.from === step.to ? translate('app.notifications.escalationStep') : `${step.from === null ? translate('crud.alarms.raised') : state(step.from)} → ${state(step.to)}`,
    actor: (step: AlarmTransition) => (step.actor === 'system' ? translate('crud.alarms.system') : step.actor),
  };
};
