import { useCallback, useEffect } from 'react';
import { Alert, Button, IconButton, Stack } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import {
  CloseNotificationContext,
  undoableEventEmitter,
  useNotificationContext,
  useTakeUndoableMutation,
  useTranslate,
  type NotificationPayload,
} from 'react-admin';
import { useConsoleConfig } from '../ConsoleConfigContext';

const SEVERITY = { info: 'info', success: 'success', warning: 'warning', error: 'error' } as const;

/** One notification: hides itself after its own duration (the console's 5 s unless it names one; null stays). */
type Remove = (notification: NotificationPayload, undo: boolean) => void;

const StackedNotification = ({ notification, remove }: { notification: NotificationPayload; remove: Remove }) => {
  const translate = useTranslate();
  const { errorToastMs } = useConsoleConfig();
  const { message, type = 'info', notificationOptions = {} } = notification;
  const { autoHideDuration, messageArgs, undoable } = notificationOptions;
  const duration = autoHideDuration === undefined ? errorToastMs : autoHideDuration;

  const onClose = (undo: boolean) => remove(notification, undo);
  // Its own timer, started once: notifications arriving later neither extend nor cut it.
  useEffect(() => {
    if (duration === null) return;
    const timer = setTimeout(() => remove(notification, false), duration);
    return () => clearTimeout(timer);
  }, [duration, notification, remove]);

  return (
    <CloseNotificationContext.Provider value={() => onClose(false)}>
      <Alert
        variant="filled"
        severity={SEVERITY[type]}
        sx={{ minWidth: 288, maxWidth: 560, boxShadow: 6, alignItems: 'center' }}
        action={
          <>
            {undoable && (
              <Button color="inherit" size="small" onClick={() => onClose(true)}>
                {translate('ra.action.undo')}
              </Button>
            )}
            <IconButton color="inherit" size="small" aria-label={translate('ra.action.close')} onClick={() => onClose(false)}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </>
        }
      >
        {typeof message === 'string' ? translate(message, messageArgs) : message}
      </Alert>
    </CloseNotificationContext.Provider>
  );
};

/**
 * Every current notification at once, stacked at the bottom of the window, newest last: react-admin's
 * own shows one at a time from a queue, so a burst (say, three failed commands) would take 15 s to read.
 * An undoable change is committed when its notification goes, and undone by its Undo button.
 */
export const StackedNotifications = () => {
  const { notifications, setNotifications } = useNotificationContext();
  const takeMutation = useTakeUndoableMutation();

  const remove = useCallback<Remove>(
    (notification, undo) => {
      setNotifications((current) => current.filter((candidate) => candidate !== notification));
      if (!notification.notificationOptions?.undoable) return;
      const mutation = takeMutation();
      if (mutation) mutation({ isUndo: undo });
      else undoableEventEmitter.emit('end', { isUndo: undo });
    },
    [setNotifications, takeMutation],
  );

  if (notifications.length === 0) return null;
  return (
    <Stack
      spacing={1}
      aria-live="polite"
      sx={{ position: 'fixed', bottom: 24, left: '50%', transform: 'translateX(-50%)', zIndex: (theme) => theme.zIndex.snackbar }}
    >
      {notifications.map((notification) => (
        <StackedNotification key={keyOf(notification)} notification={notification} remove={remove} />
      ))}
    </Stack>
  );
};

/** A stable key per notification object: payloads carry no id, and two may share a message. */
const keys = new WeakMap<NotificationPayload, number>();
let lastKey = 0;
const keyOf = (notification: NotificationPayload) => {
  const known = keys.get(notification);
  if (known !== undefined) return known;
  lastKey += 1;
  keys.set(notification, lastKey);
  return lastKey;
};
