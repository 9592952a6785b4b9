import { NumberInput, SelectInput, useTranslate } from 'react-admin';
import { RANGES, SETTINGS_FIELDS, SPEEDS } from '../../domain/mqtt/payloads';
import { isAboveRating } from '../../domain/deviceTypes';
import { useDeviceTypes } from '../device-types/useDeviceTypes';
import { formValidator, type FormErrors } from '../validation';
import { changeSettingsBodySchema, type Settings } from './requests';

/**
 * The settings' inputs and their checks, shared by the device's settings dialog (./DeviceSettings.tsx) and the
 * amendment of a waiting settings request (src/resources/setting-requests/AmendDialog.tsx), so that a request
 * is held to exactly what a settings command is.
 */

/** The settings' labels and choices are the state records' (the same SP … SA a chamber reports). */
export const SETTINGS_LABELS = 'resources.state-records';
const CHOICES = { SS: SPEEDS, SL: [0, 1], SA: [0, 1] } as const;
const choices = (field: keyof typeof CHOICES) => CHOICES[field].map((id) => ({ id, name: `${SETTINGS_LABELS}.choices.${field}.${id}` }));

/** The form's values: every setting optional, with the shared ranges (./requests.ts). */
const settingsForm = changeSettingsBodySchema.omit({ Id: true });

/** An emptied input (NumberInput: null, SelectInput: '') means "leave this setting as it is". */
export const filledIn = (values: Record<string, unknown>): Partial<Settings> =>
  Object.fromEntries(SETTINGS_FIELDS.flatMap((field) => (values[field] === null || values[field] === undefined || values[field] === '' ? [] : [[field, values[field]]])));

/** The settings filled in that differ from `from` (all of them when `from` is empty). */
export const changedFrom = (from: Partial<Settings>, settings: Partial<Settings>): Partial<Settings> =>
  Object.fromEntries(Object.entries(settings).filter(([field, value]) => from[field as keyof Settings] !== value));

/** The device type's rating the set point is held to: its name and rated maximum pressure (ATA). */
export interface SettingsRating {
  name: string;
  ratedMaxAta: number;
}

/** The rating of a device of type `type` (a device record's `Type`), once the types are read. */
export const useSettingsRating = (type: unknown): SettingsRating | undefined => {
  const found = useDeviceTypes().get(Number(type));
  return found === undefined ? undefined : { name: found.name, ratedMaxAta: found.ratedMaxAta };
};

/**
 * The form's validation: the contract's ranges (the shared schema), and a new SP above the device type's
 * rating refused naming the limit and the type, as the server refuses it (docs/commands.md, "Within the
 * rating"). An SP left as in force is not sent, so it is not held to the rating; without the types yet,
 * the server alone checks it.
 */
export const settingsValidator =
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

/**
 * Pressure SP (ATA), time ST (minutes), speed SS, light SL and atmosphere light SA, each with its range (SP's
 * held to the type's rating when known) and each emptied to leave it as it is; inside a react-admin Form.
 */
export const SettingsInputs = ({ rating }: { rating: SettingsRating | undefined }) => {
  const translate = useTranslate();
  const range = (field: 'SP' | 'ST', unit: 'ata' | 'minute') => `${RANGES[field].min}–${RANGES[field].max} ${translate(`crud.units.${unit}`)}`;
  const spMax = rating === undefined ? RANGES.SP.max : Math.min(RANGES.SP.max, rating.ratedMaxAta);
  const spRange = rating === undefined ? range('SP', 'ata') : translate('app.commands.ratedRange', { min: RANGES.SP.min, max: spMax, name: rating.name });
  return (
    <>
      <NumberInput source="SP" label={`${SETTINGS_LABELS}.fields.SP`} helperText={spRange} min={RANGES.SP.min} max={spMax} step={0.1} fullWidth />
      <NumberInput source="ST" label={`${SETTINGS_LABELS}.fields.ST`} helperText={range('ST', 'minute')} min={RANGES.ST.min} max={RANGES.ST.max} step={1} fullWidth />
      {(Object.keys(CHOICES) as (keyof typeof CHOICES)[]).map((field) => (
        <SelectInput key={field} source={field} label={`${SETTINGS_LABELS}.fields.${field}`} choices={choices(field)} emptyText="app.commands.unchanged" fullWidth />
      ))}
    </>
  );
};
