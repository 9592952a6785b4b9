import type { ReactElement } from 'react';
import { Chip, Typography } from '@mui/material';
import {
  DateField,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SelectField,
  TextField,
  useFieldValue,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { idFields } from '../model';
import type { EnumFieldConfig, FieldConfig, ResourceConfig, Tone, UnitBy } from '../types';
import { choicesOf, unitNamedBy, type Labels } from './labels';

/** Values read as one token (a number and its unit, a time, a label, an id): a line break inside one misleads. */
const ONE_LINE_KINDS: ReadonlySet<FieldConfig['kind']> = new Set(['number', 'enum', 'boolean', 'datetime', 'reference', 'bloodPressure']);
const oneLine = { whiteSpace: 'nowrap' } as const;

/** A yes/no value as the words 是/否 (yes/no), which read where a tick's meaning is not obvious (Online, Emergency). */
const BooleanText = ({ source }: { source: string; label?: string; sortable?: boolean }) => {
  const translate = useTranslate();
  const value: unknown = useFieldValue({ source });
  if (value === null || value === undefined) return null;
  return <span style={oneLine}>{translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}</span>;
};

/** What the datagrid reads off a column's element. */
interface ColumnProps {
  source: string;
  label?: string;
  sortable?: boolean;
  textAlign?: 'left' | 'right';
}

/** A choice as a chip of its tone, labelled, so the colour is never the only sign. */
const ToneChip = ({ source, name, tones }: ColumnProps & { name: string; tones: Readonly<Partial<Record<string, Tone>>> }) => {
  const translate = useTranslate();
  const value: unknown = useFieldValue({ source });
  if (value === null || value === undefined) return null;
  const tone = tones[String(value)] ?? 'default';
  return <Chip size="small" color={tone} variant={tone === 'default' ? 'outlined' : 'filled'} label={translate(`resources.${name}.choices.${source}.${String(value)}`)} />;
};

/** A number in the unit its record names (an alarm's value in its kind's unit): "23.6 %", "2.1 ATA". */
const NumberInUnit = ({ source, unitBy }: ColumnProps & { unitBy: UnitBy }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const record = useRecordContext();
  const value: unknown = record?.[source];
  if (typeof value !== 'number') return null;
  const unit = unitNamedBy(unitBy, record);
  const number = value.toLocaleString(locale, { maximumFractionDigits: 2 });
  return (
    <Typography component="span" variant="body2" sx={oneLine}>
      {unit ? `${number} ${translate(`crud.units.${unit}`)}` : number}
    </Typography>
  );
};

const hasTones = (field: EnumFieldConfig): field is EnumFieldConfig & { tones: NonNullable<EnumFieldConfig['tones']> } => field.tones !== undefined;

/** The react-admin field that shows a value of this kind; null for what is never shown (passwords). */
export const fieldElement = (
  config: ResourceConfig,
  source: string,
  field: FieldConfig,
  labels: Labels,
  sortable = true,
): ReactElement | null => {
  const common = { source, label: labels.field(source), sortable };
  const sx = ONE_LINE_KINDS.has(field.kind) || idFields(config).includes(source) ? oneLine : undefined;
  switch (field.kind) {
    case 'text':
    case 'bloodPressure':
      return <TextField key={source} {...common} sx={sx} />;
    case 'number':
      // A number another resource names (a device's Type) shows that name, not the number.
      if (field.namedBy) return <ReferenceField key={source} {...common} reference={field.namedBy} link={false} sx={sx} />;
      return field.unitBy ? (
        <NumberInUnit key={source} {...common} unitBy={field.unitBy} textAlign="right" />
      ) : (
        <NumberField key={source} {...common} options={{ maximumFractionDigits: 2 }} sx={sx} />
      );
    case 'enum':
      return hasTones(field) ? (
        <ToneChip key={source} {...common} name={config.name} tones={field.tones} />
      ) : (
        <SelectField key={source} {...common} choices={choicesOf(config, source, field)} sx={sx} />
      );
    case 'boolean':
      return <BooleanText key={source} {...common} />;
    case 'datetime':
      return <DateField key={source} {...common} showTime locales={labels.locale} sx={sx} />;
    case 'reference':
      return field.many ? (
        <ReferenceArrayField key={source} {...common} reference={field.reference} />
      ) : (
        <ReferenceField key={source} {...common} reference={field.reference} link="show" sx={sx}>
          {field.shows ? <TextField source={field.shows} /> : undefined}
        </ReferenceField>
      );
    case 'reading':
    case 'password':
      return null;
  }
};
