import { useState } from 'react';
import { Alert, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import TuneIcon from '@mui/icons-material/Tune';
import SendIcon from '@mui/icons-material/Send';
import { useMutation } from '@tanstack/react-query';
import { Button, Form, NumberInput, SaveButton, SelectInput, useDataProvider, useNotify, useRefresh, useTranslate, type RaRecord } from 'react-admin';
import { RANGES, SETTINGS_FIELDS, SPEEDS } from '../../domain/mqtt/payloads';
import { isAboveRating } from '../../domain/deviceTypes';
import { useDeviceTypes } from '../device-types/useDeviceTypes';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { RowAction } from '../generate/RowAction';
import { formValidator, type FormErrors } from '../validation';
import type { Telemetry } from '../../domain/mqtt/payloads';
import { changeSettingsBodySchema, hasSettings, settingsOf, type ChangeSettingsBody, type Settings } from './requests';
import { useCommandFeedback } from './useCommandFeedback';
import { useSessionConfirm } from './useSessionConfirm';

/** The settings' labels and choices are the state records' (the same SP … SA a chamber reports). */
const LABELS = 'resources.state-records';
const CHOICES = { SS: SPEEDS, SL: [0, 1], SA: [0, 1] } as const;
const choices = (field: keyof typeof CHOICES) => CHOICES[field].map((id) => ({ id, name: `${LABELS}.choices.${field}.${id}` }));

/** The form's values: every setting optional, with the shared ranges (./requests.ts). */
const settingsForm = changeSettingsBodySchema.omit({ Id: true });

/** An emptied input (NumberInput: null, SelectInput: '') means "leave this setting as it is". */
const filledIn = (values: Record<string, unknown>): Partial<Settings> =>
  Object.fromEntries(SETTINGS_FIELDS.flatMap((field) => (values[field] === null || values[field] === undefined || values[field] === '' ? [] : [[field, values[field]]])));

/** The settings filled in that differ from those in force (all of them when none is known). */
const changedFrom = (inForce: Partial<Settings>, settings: Partial<Settings>): Partial<Settings> =>
  Object.fromEntries(Object.entries(settings).filter(([field, value]) => inForce[field as keyof Settings] !== value));

/** The device type's rating the set point is held to: its name and rated maximum pressure (ATA). */
interface SettingsRating {
  name: string;
  ratedMaxAta: number;
}

/**
 * The dialog's validation: the contract's ranges (the shared schema), and a new SP above the device type's
 * rating refused naming the limit and the type, as the server refuses it (docs/commands.md, "Within the
 * rating"). An SP left as in force is not sent, so it is not held to the rating; without the types yet,
 * the server alone checks it.
 */
const settingsValidator =
  (inForce: Partial<Settings>, rating: SettingsRating | undefined) =>
  (values: Record<string, unknown>): FormErrors => {
    const filled = filledIn(values);
    const errors = formValidator(settingsForm)(filled);
    const { SP } = changedFrom(inForce, filled);
    if (errors.SP === undefined && rating !== undefined && typeof SP === 'number' && isAboveRating(SP, rating.ratedMaxAta)) {
      errors.SP = { message: 'app.commands.aboveRating', args: { max: rating.ratedMaxAta, name: rating.name } };
    }
    return errors;
  };

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
  const type = useDeviceTypes().get(Number(record.Type));
  const rating = type === undefined ? undefined : { name: type.name, ratedMaxAta: type.ratedMaxAta };
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
  const range = (field: 'SP' | 'ST', unit: 'ata' | 'minute') =>
    `${RANGES[field].min}–${RANGES[field].max} ${translate(`crud.units.${unit}`)}`;
  const spMax = rating === undefined ? RANGES.SP.max : Math.min(RANGES.SP.max, rating.ratedMaxAta);
  const spRange = rating === undefined ? range('SP', 'ata') : translate('app.commands.ratedRange', { min: RANGES.SP.min, max: spMax, name: rating.name });
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
            <NumberInput source="SP" label={`${LABELS}.fields.SP`} helperText={spRange} min={RANGES.SP.min} max={spMax} step={0.1} fullWidth />
            <NumberInput source="ST" label={`${LABELS}.fields.ST`} helperText={range('ST', 'minute')} min={RANGES.ST.min} max={RANGES.ST.max} step={1} fullWidth />
            {(Object.keys(CHOICES) as (keyof typeof CHOICES)[]).map((field) => (
              <SelectInput key={field} source={field} label={`${LABELS}.fields.${field}`} choices={choices(field)} emptyText="app.commands.unchanged" fullWidth />
            ))}
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
