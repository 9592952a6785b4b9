import { useState } from 'react';
import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import TuneIcon from '@mui/icons-material/Tune';
import SendIcon from '@mui/icons-material/Send';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, NumberInput, SaveButton, SelectInput, useDataProvider, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { RANGES, SETTINGS_FIELDS, SPEEDS } from '../../domain/mqtt/payloads';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { RowAction } from '../generate/RowAction';
import { formValidator } from '../validation';
import { changeSettingsBodySchema, hasSettings, type ChangeSettingsBody, type Settings } from './requests';
import { useCommandFeedback } from './useCommandFeedback';

/** The settings' labels and choices are the state records' (the same SP … SA a chamber reports). */
const LABELS = 'resources.state-records';
const CHOICES = { SS: SPEEDS, SL: [0, 1], SA: [0, 1] } as const;
const choices = (field: keyof typeof CHOICES) => CHOICES[field].map((id) => ({ id, name: `${LABELS}.choices.${field}.${id}` }));

/** The form's values: every setting optional, with the shared ranges (./requests.ts). */
const settingsForm = changeSettingsBodySchema.omit({ Id: true });

/** An emptied input (NumberInput: null, SelectInput: '') means "leave this setting as it is". */
const filledIn = (values: Record<string, unknown>): Partial<Settings> =>
  Object.fromEntries(SETTINGS_FIELDS.flatMap((field) => (values[field] === null || values[field] === undefined || values[field] === '' ? [] : [[field, values[field]]])));

const validate = (values: Record<string, unknown>) => formValidator(settingsForm)(filledIn(values));

/**
 * "Change settings" of a device row: pressure SP (ATA), time ST (minutes), speed SS, light SL and
 * atmosphere light SA, each left empty to keep it; validated with the contract's ranges before sending
 * (messages in the user's language). Sent as one settings command; the chamber's answer follows as a
 * notification (useCommandFeedback).
 */
export const DeviceSettings = ({ record }: { record: RaRecord }) => {
  const translate = useTranslate();
  const refresh = useRefresh();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const feedback = useCommandFeedback();
  const [open, setOpen] = useState(false);
  const [nothingChosen, setNothingChosen] = useState(false);
  const Id = String(record.Id);
  const send = useMutation({
    mutationFn: (body: ChangeSettingsBody) => dataProvider.changeSettings(body),
    onSuccess: (issued) => {
      setOpen(false);
      feedback(Id, issued);
      refresh();
    },
  });
  const close = () => {
    setOpen(false);
    setNothingChosen(false);
  };
  const save = async (values: Record<string, unknown>) => {
    const settings = filledIn(values);
    setNothingChosen(!hasSettings(settings));
    if (!hasSettings(settings)) return;
    // The HTTP client announces a refusal; the dialog stays open so the values can be corrected.
    await send.mutateAsync({ Id, ...settings }).catch(() => undefined);
  };
  const range = (field: 'SP' | 'ST', unit: 'ata' | 'minute') =>
    `${RANGES[field].min}–${RANGES[field].max} ${translate(`crud.units.${unit}`)}`;
  return (
    <>
      <RowAction label="app.commands.settings" icon={<TuneIcon />} onClick={() => setOpen(true)} disabled={send.isPending} />
      <Dialog open={open} onClose={close} aria-labelledby="device-settings-title" maxWidth="xs" fullWidth>
        <Form record={{}} onSubmit={save} validate={validate} noValidate>
          <DialogTitle id="device-settings-title">{translate('app.commands.settingsTitle', { device: `${Id} · ${String(record.name ?? '')}` })}</DialogTitle>
          <DialogContent>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              {translate('app.commands.settingsHint')}
            </Typography>
            <NumberInput source="SP" label={`${LABELS}.fields.SP`} helperText={range('SP', 'ata')} min={RANGES.SP.min} max={RANGES.SP.max} step={0.1} fullWidth />
            <NumberInput source="ST" label={`${LABELS}.fields.ST`} helperText={range('ST', 'minute')} min={RANGES.ST.min} max={RANGES.ST.max} step={1} fullWidth />
            {(Object.keys(CHOICES) as (keyof typeof CHOICES)[]).map((field) => (
              <SelectInput key={field} source={field} label={`${LABELS}.fields.${field}`} choices={choices(field)} emptyText="app.commands.unchanged" fullWidth />
            ))}
            {nothingChosen && <Alert severity="warning">{translate('app.commands.noSettings')}</Alert>}
          </DialogContent>
          <DialogActions>
            <Button label="ra.action.cancel" onClick={close} />
            <SaveButton label="app.commands.send" icon={<SendIcon />} alwaysEnable={!send.isPending} />
          </DialogActions>
        </Form>
      </Dialog>
    </>
  );
};
