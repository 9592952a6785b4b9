import { useMemo, type ReactElement } from 'react';
import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { Form, HttpError, NumberInput, SaveButton, TextInput, useNotify, useTranslate, type RaRecord } from 'react-admin';
import { DEFAULT_SHELVE_MAX_MINUTES } from '../../domain/alarms/rules';
import { namedField } from '../../providers/dataProvider';
import { formValidator } from '../validation';
import { CancelButton } from '../generate/CancelButton';
import { usePhoneDialog } from '../generate/usePhone';
import { alarmActionBodies, SHELVE_MINUTES_LIMIT, type AlarmAction, type AlarmActionBody } from './requests';

/** The actions that ask for something first: a comment (optional), minutes and a reason, a reason. */
export type AskingAction = Exclude<AlarmAction, 'unshelve'>;

const FIELDS: Record<AskingAction, readonly string[]> = { ack: ['comment'], shelve: ['minutes', 'reason'], close: ['reason'] };

/**
 * The console checks what every server accepts (up to a day of shelving); a server whose
 * ALARM_SHELVE_MAX_MINUTES is lower refuses more, naming `minutes`, and that shows under the field.
 */
const BODIES = alarmActionBodies(SHELVE_MINUTES_LIMIT);

/** The form's values as the action's body: an emptied input is left out (a blank comment is no comment). */
const bodyOf = (action: AskingAction, values: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    FIELDS[action].flatMap((field) => {
      const value = values[field];
      return value === null || value === undefined || (typeof value === 'string' && value.trim() === '') ? [] : [[field, value]];
    }),
  );

const validatorOf = (action: AskingAction) => {
  const validate = formValidator(BODIES[action]);
  return (values: Record<string, unknown>) => validate(bodyOf(action, values));
};

interface AlarmActionDialogProps {
  action: AskingAction;
  icon: ReactElement;
  record: RaRecord;
  onClose: () => void;
  /** Sends the body; rejects with the server's refusal. */
  send: (body: AlarmActionBody<AlarmAction>) => Promise<unknown>;
}

/**
 * The dialog of an action that asks first: acknowledge (an optional comment for the next shift), shelve
 * (for how many minutes, 60 unless changed, and why) and close out of service (why). Checked with the
 * actions' shared bodies before sending, messages in the user's language under the field they name; a
 * refusal of the server that names a field shows there too, any other as a notification.
 */
export const AlarmActionDialog = ({ action, icon, record, onClose, send }: AlarmActionDialogProps) => {
  const translate = useTranslate();
  const notify = useNotify();
  const titleId = `alarm-${action}-title`;
  const { fullScreen, actionsSx } = usePhoneDialog();
  const validate = useMemo(() => validatorOf(action), [action]);
  const choice = (source: string) => translate(`resources.alarms.choices.${source}.${String(record[source])}`);
  const submit = async (values: Record<string, unknown>) => {
    try {
      await send(bodyOf(action, values) as AlarmActionBody<AlarmAction>);
      onClose();
      return undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const field = error instanceof HttpError && error.status === 400 ? namedField(message, FIELDS[action]) : undefined;
      if (field) return { [field]: message };
      notify(message, { type: 'error' });
      return undefined;
    }
  };
  const text = (source: 'comment' | 'reason', helperText: string, required: boolean) => (
    <TextInput source={source} label={`crud.alarms.${source}`} helperText={helperText} multiline minRows={2} isRequired={required} fullWidth />
  );
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth fullScreen={fullScreen}>
      <Form record={action === 'shelve' ? { minutes: DEFAULT_SHELVE_MAX_MINUTES } : {}} onSubmit={submit} validate={validate} noValidate>
        <DialogTitle id={titleId}>{translate(`crud.alarms.${action}Title`, { id: record.id })}</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('crud.alarms.about', { device: String(record.deviceId), kind: choice('kind'), state: choice('state') })}
          </Typography>
          {action === 'ack' && text('comment', 'crud.alarms.commentHint', false)}
          {action === 'shelve' && (
            <>
              <NumberInput source="minutes" label="crud.alarms.minutes" helperText="crud.alarms.minutesHint" min={1} step={1} isRequired fullWidth />
              {text('reason', 'crud.alarms.shelveReason', true)}
            </>
          )}
          {action === 'close' && (
            <>
              <Alert severity="warning" sx={{ mb: 2 }}>
                {translate('crud.alarms.closeHint')}
              </Alert>
              {text('reason', 'crud.alarms.closeReason', true)}
            </>
          )}
        </DialogContent>
        <DialogActions sx={actionsSx}>
          <CancelButton onClick={onClose} />
          <SaveButton label={`crud.alarms.${action}`} icon={icon} alwaysEnable />
        </DialogActions>
      </Form>
    </Dialog>
  );
};
