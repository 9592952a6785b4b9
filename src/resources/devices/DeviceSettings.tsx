import { useState } from 'react';
import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import TuneIcon from '@mui/icons-material/Tune';
import SendIcon from '@mui/icons-material/Send';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, SaveButton, useDataProvider, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { RowAction } from '../generate/RowAction';
import type { Telemetry } from '../../domain/mqtt/payloads';
import { hasSettings, settingsOf, type ChangeSettingsBody, type Settings } from './requests';
import { changedFrom, filledIn, SETTINGS_LABELS as LABELS, SettingsInputs, settingsValidator, useSettingsRating } from './SettingsInputs';
import { useCommandFeedback } from './useCommandFeedback';
import { useSessionConfirm } from './useSessionConfirm';

type Why = 'noSettings' | 'noChange';

/**
 * "Change settings" of a device: pressure SP (ATA), time ST (minutes), speed SS, light SL and atmosphere
 * light SA, starting from the settings in force (the newest reading's, taken when the dialog opens), each
 * emptied to keep it; validated with the contract's ranges and SP with the device type's rating (shown
 * under the input) before sending (messages in the user's language). Only the settings that differ from those in force are sent, as one settings command, after a
 * confirmation naming them while the chamber is in session; the chamber's answer follows as a
 * notification (useCommandFeedback). With `requestOnly` (a lowUser, docs/approval.md) the same settings are
 * filed as a request for an administrator above to approve, and nothing is sent to the chamber yet.
 */
export const DeviceSettings = ({ record, requestOnly = false }: { record: RaRecord; requestOnly?: boolean }) => {
  const translate = useTranslate();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const feedback = useCommandFeedback();
  const [open, setOpen] = useState(false);
  const [nothingToSend, setNothingToSend] = useState<Why | null>(null);
  const [inForce, setInForce] = useState<Partial<Settings>>({});
  const { confirmFirst, dialog } = useSessionConfirm(record);
  const rating = useSettingsRating(record.Type);
  const Id = String(record.Id);
  const notify = useNotify();
  const send = useMutation({
    mutationFn: async (body: ChangeSettingsBody) =>
      requestOnly ? { request: await dataProvider.requestSettings(body) } : { request: undefined, issued: await dataProvider.changeSettings(body) },
    onSuccess: (answer) => {
      setOpen(false);
      if (answer.request === undefined) feedback(Id, answer.issued ?? {});
      else notify('app.approval.submitted', { type: 'success', messageArgs: { id: answer.request.id } });
      refresh();
    },
  });
  const openDialog = () => {
    setInForce(settingsOf((record.Reading ?? {}) as Partial<Telemetry>));
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    setNothingToSend(null);
  };
  const shown = (field: keyof Settings, value: unknown) =>
    value === undefined ? '—' : field === 'SP' || field === 'ST' ? String(value) : translate(`${LABELS}.choices.${field}.${String(value)}`);
  const save = (values: Record<string, unknown>) => {
    const filled = filledIn(values);
    const settings = changedFrom(inForce, filled);
    setNothingToSend(hasSettings(filled) ? (hasSettings(settings) ? null : 'noChange') : 'noSettings');
    if (!hasSettings(settings)) return;
    const detail = (Object.keys(settings) as (keyof Settings)[])
      .map((field) => `${translate(`${LABELS}.fields.${field}`)} ${shown(field, inForce[field])} → ${shown(field, settings[field])}`)
      .join('，');
    // The HTTP client announces a refusal; the dialog stays open so the values can be corrected.
    confirmFirst('settings', () => void send.mutateAsync({ Id, ...settings }).catch(() => undefined), detail);
  };
  return (
    <>
      <RowAction label={requestOnly ? 'app.approval.request' : 'app.commands.settings'} icon={<TuneIcon />} onClick={openDialog} disabled={send.isPending} />
      <Dialog open={open} onClose={close} aria-labelledby="device-settings-title" maxWidth="xs" fullWidth>
        <Form record={inForce} onSubmit={save} validate={settingsValidator(inForce, rating)} noValidate>
          <DialogTitle id="device-settings-title">{translate('app.commands.settingsTitle', { device: `${Id} · ${String(record.name ?? '')}` })}</DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate('app.commands.settingsHint')}
            </Typography>
            <SettingsInputs rating={rating} />
            {nothingToSend && <Alert severity="warning">{translate(`app.commands.${nothingToSend}`)}</Alert>}
          </DialogContent>
          <DialogActions>
            <Button label="ra.action.cancel" onClick={close} />
            <SaveButton label={requestOnly ? 'app.approval.submit' : 'app.commands.send'} icon={<SendIcon />} alwaysEnable={!send.isPending} />
          </DialogActions>
        </Form>
      </Dialog>
      {dialog}
    </>
  );
};
