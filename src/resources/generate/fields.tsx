import type { ReactElement } from 'react';
import { Chip, Typography } from '@mui/material';
import {
  DateField,
  Link,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SelectField,
  TextField,
  useFieldValue,
  useGetPathForRecord,
  useLocaleState,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { RESOURCE_CONFIGS } from '../configs';
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

const stopRowClick = (event: { stopPropagation: () => void }) => event.stopPropagation();

/**
 * A reference that shows the referenced record's own id, which is this field's value: drawn from the value
 * and linked to that record, with nothing looked up. A ReferenceField would look each row's record up
 * through react-query's cache and keep it there; a log of readings refetching its page every 2 s at 10,000
 * chambers grows the cache by a page of devices each time, and every cache event walks it.
 */
const ReferencedId = ({ source, reference }: ColumnProps & { reference: string }) => {
  const value: unknown = useFieldValue({ source });
  const id = typeof value === 'string' || typeof value === 'number' ? value : undefined;
  const path = useGetPathForRecord({ record: id === undefined ? undefined : { id }, resource: reference, link: 'show' });
  if (id === undefined) return null;
  const text = (
    <Typography component="span" variant="body2" sx={oneLine}>
      {String(id)}
    </Typography>
  );
  return path ? (
    <Link to={path} onClick={stopRowClick}>
      {text}
    </Link>
  ) : (
    text
  );
};

/** Each resource's id field (a composite id's fields joined), found once rather than per column and render. */
const ID_FIELD = new Map(RESOURCE_CONFIGS.map((config) => [config.name, idFields(config).join()]));

/** Whether a reference shows what its value already is: the referenced resource's (single) id field. */
const showsReferencedId = (reference: string, shows: string | undefined): boolean => shows !== undefined && ID_FIELD.get(reference) === shows;

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
      if (field.many) return <ReferenceArrayField key={source} {...common} reference={field.reference} />;
      return showsReferencedId(field.reference, field.shows) ? (
        <ReferencedId key={source} {...common} reference={field.reference} />
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
