import { useState } from 'react';
import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import EditIcon from '@mui/icons-material/Edit';
import SendIcon from '@mui/icons-material/Send';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, SaveButton, useDataProvider, useGetOne, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { hasSettings } from '../devices/requests';
import { changedFrom, filledIn, SettingsInputs, settingsValidator, useSettingsRating } from '../devices/SettingsInputs';
import type { SettingRequestRecord } from './requests';

/** The server's refusal in the caller's language (react-admin's HttpError carries it as its message). */
const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * "Amend" of the requester's waiting request (docs/approval.md): the settings it asks for, starting from
 * those of the request, with the inputs and checks of the device's settings dialog (SP held to the device
 * type's rating). What is filled in replaces the request's settings; the server gives them a new settings
 * hash, so a signature over the old ones no longer holds and the approvers sign again.
 */
export const AmendDialog = ({ request, onDone }: { request: SettingRequestRecord; onDone: () => void }) => {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [open, setOpen] = useState(false);
  const [nothing, setNothing] = useState<'noSettings' | 'noAmendment' | null>(null);
  const { data: device } = useGetOne('devices', { id: request.deviceId }, { enabled: open });
  const rating = useSettingsRating(device?.Type);
  const amend = useMutation({
    mutationFn: (settings: SettingRequestRecord['settings']) => dataProvider.amendSettingRequest(request.id, settings),
    onSuccess: () => {
      setOpen(false);
      notify('app.approval.done.amend', { type: 'success', messageArgs: { id: request.id } });
      onDone();
    },
  });
  const close = () => {
    setOpen(false);
    setNothing(null);
    amend.reset();
  };
  const save = (values: Record<string, unknown>) => {
    const settings = filledIn(values);
    const changed = hasSettings(changedFrom(request.settings, settings)) || hasSettings(changedFrom(settings, request.settings));
    setNothing(hasSettings(settings) ? (changed ? null : 'noAmendment') : 'noSettings');
    if (hasSettings(settings) && changed) amend.mutate(settings);
  };
  return (
    <>
      <Button label="app.approval.amend" onClick={() => setOpen(true)} data-decision="amend">
        <EditIcon />
      </Button>
      <Dialog open={open} onClose={close} aria-labelledby="amend-title" maxWidth="xs" fullWidth>
        <Form record={request.settings} onSubmit={save} validate={settingsValidator({}, rating)} noValidate>
          <DialogTitle id="amend-title">{translate('app.approval.amendTitle', { id: request.id, device: request.deviceId })}</DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate('app.approval.amendHint')}
            </Typography>
            <SettingsInputs rating={rating} />
            {nothing && <Alert severity="warning">{translate(nothing === 'noSettings' ? 'app.commands.noSettings' : 'app.approval.noAmendment')}</Alert>}
            {amend.isError && <Alert severity="error">{messageOf(amend.error)}</Alert>}
          </DialogContent>
          <DialogActions>
            <Button label="ra.action.cancel" onClick={close} />
            <SaveButton label="app.approval.amendSubmit" icon={<SendIcon />} alwaysEnable={!amend.isPending} />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};
