import { useState, type MouseEvent, type ReactElement } from 'react';
import { Box } from '@mui/material';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import SnoozeIcon from '@mui/icons-material/Snooze';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import HighlightOffIcon from '@mui/icons-material/HighlightOff';
import { useCanAccess, useNotify, useRecordContext } from 'react-admin';
import type { AlarmState } from '../../domain/alarms/rules';
import type { Action } from '../../domain/policy';
import { RowAction } from '../generate/RowAction';
import { AlarmActionDialog, type AskingAction } from './AlarmActionDialog';
import { offeredAlarmActions, type AlarmAction } from './requests';
import { useAlarmAction } from './useAlarmAction';

const ICONS: Record<AlarmAction, ReactElement> = {
  ack: <TaskAltIcon />,
  shelve: <SnoozeIcon />,
  unshelve: <NotificationsActiveIcon />,
  close: <HighlightOffIcon />,
};

/** The rights behind the alarms' actions, asked of the policy once per row. */
const useAlarmRights = (): ((right: Action) => boolean) => {
  const rights: Partial<Record<Action, boolean | undefined>> = {
    acknowledge: useCanAccess({ resource: 'alarms', action: 'acknowledge' }).canAccess,
    shelve: useCanAccess({ resource: 'alarms', action: 'shelve' }).canAccess,
    clear: useCanAccess({ resource: 'alarms', action: 'clear' }).canAccess,
  };
  return (right) => rights[right] === true;
};

/**
 * An alarm's actions (its list row, its page): acknowledge, shelve, unshelve, close out of service; each an
 * icon named in its tooltip, shown only when the alarm's state allows it and the role may (a client
 * acknowledges only). Unshelving goes at once; the others ask first (AlarmActionDialog).
 */
export const AlarmActions = () => {
  const record = useRecordContext();
  const notify = useNotify();
  const may = useAlarmRights();
  const [asking, setAsking] = useState<AskingAction | null>(null);
  const act = useAlarmAction(record?.id);
  if (!record) return null;
  const offered = offeredAlarmActions(record.state as AlarmState, may);
  const start = (action: AlarmAction) => {
    if (action !== 'unshelve') setAsking(action);
    else act.mutate({ action, body: {} }, { onError: (error) => notify(error.message, { type: 'error' }) });
  };
  // The row opens the alarm on click; an action (and its dialog, a portal in the same React tree) must not.
  const keepInRow = (event: MouseEvent) => event.stopPropagation();
  return (
    <Box component="span" onClick={keepInRow} sx={{ display: 'inline-flex', alignItems: 'center', whiteSpace: 'nowrap' }}>
      {offered.map((action) => (
        <RowAction key={action} label={`crud.alarms.${action}`} icon={ICONS[action]} disabled={act.isPending} onClick={() => start(action)} />
      ))}
      {asking && (
        <AlarmActionDialog
          action={asking}
          icon={ICONS[asking]}
          record={record}
          onClose={() => setAsking(null)}
          send={(body) => act.mutateAsync({ action: asking, body })}
        />
      )}
    </Box>
  );
};
