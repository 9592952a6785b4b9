import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, TextField, Typography } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import UndoIcon from '@mui/icons-material/Undo';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, useDataProvider, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import type { SignatureMeaning } from './config';
import type { SettingRequestRecord } from './requests';

type Decision = 'approve' | 'reject' | 'cancel';

/** The meanings a signer may give each decision (the server's approveBodySchema and rejectBodySchema). */
const MEANINGS: Record<Exclude<Decision, 'cancel'>, readonly SignatureMeaning[]> = { approve: ['approval', 'review'], reject: ['rejection', 'review'] };
const ICONS = { approve: <CheckIcon />, reject: <CloseIcon />, cancel: <UndoIcon /> };

/** The server's refusal in the caller's language (react-admin's HttpError carries it as its message). */
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Approve or reject with an electronic signature (21 CFR 11.50, 11.200): the signer's own password again and
 * what the signature means, over the settings hash the page shows, so a request amended meanwhile is refused
 * rather than signed unseen. A wrong password is refused under the field (the server counts it as a failed
 * sign-in). Cancel (the requester's) asks nothing more.
 */
export const SignDialog = ({ request, decision, onDone }: { request: SettingRequestRecord; decision: Decision; onDone: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [meaning, setMeaning] = useState<SignatureMeaning>(decision === 'reject' ? 'rejection' : 'approval');
  const act = useMutation({
    mutationFn: () =>
      dataProvider.settingRequestAction(request.id, decision, decision === 'cancel' ? {} : { password, meaning, settingsHash: request.settingsHash }),
    onSuccess: () => {
      setOpen(false);
      setPassword('');
      notify(`app.approval.done.${decision}`, { type: 'success', messageArgs: { id: request.id } });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    act.mutate();
  };
  const label = `app.approval.${decision}`;
  return (
    <>
      <Button label={label} onClick={() => setOpen(true)} data-decision={decision}>
        {ICONS[decision]}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="sign-title" maxWidth="xs" fullWidth>
        <form onSubmit={submit} noValidate>
          <DialogTitle id="sign-title">{translate('app.approval.signTitle', { decision: translate(label), id: request.id })}</DialogTitle>
          <DialogContent>
            {decision !== 'cancel' && (
              <>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                  {translate('app.approval.signHint')}
                </Typography>
                <TextField
                  select
                  label={translate('resources.setting-requests.fields.meaning')}
                  value={meaning}
                  onChange={(event) => setMeaning(event.target.value as SignatureMeaning)}
                  fullWidth
                  margin="dense"
                  name="meaning"
                >
                  {MEANINGS[decision].map((choice) => (
                    <MenuItem key={choice} value={choice}>
                      {translate(`resources.setting-requests.choices.meaning.${choice}`)}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  type="password"
                  name="password"
                  autoComplete="current-password"
                  label={translate('app.approval.password')}
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  required
                  fullWidth
                  margin="dense"
                />
              </>
            )}
            {act.isError && <Alert severity="error">{messageOf(act.error)}</Alert>}
          </DialogContent>
          <DialogActions>
            <Button label="ra.action.cancel" onClick={() => setOpen(false)} />
            <Button label={label} type="submit" variant="contained" disabled={act.isPending || (decision !== 'cancel' && password === '')}>
              {ICONS[decision]}
            </Button>
          </DialogActions>
        </form>
      </Dialog>
    </>
  );
};
