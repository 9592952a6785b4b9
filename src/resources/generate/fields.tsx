import type { ReactElement } from 'react';
import {
  DateField,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SelectField,
  TextField,
  useFieldValue,
  useTranslate,
} from 'react-admin';
import { idFields } from '../model';
import type { FieldConfig, ResourceConfig } from '../types';
import { choicesOf, type Labels } from './labels';

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
      return field.namedBy ? (
        <ReferenceField key={source} {...common} reference={field.namedBy} link={false} sx={sx} />
      ) : (
        <NumberField key={source} {...common} options={{ maximumFractionDigits: 2 }} sx={sx} />
      );
    case 'enum':
      return <SelectField key={source} {...common} choices={choicesOf(config, source, field)} sx={sx} />;
    case 'boolean':
      return <BooleanText key={source} {...common} />;
    case 'datetime':
      return <DateField key={source} {...common} showTime locales={labels.locale} sx={sx} />;
    case 'reference':
      return field.many ? (
        <ReferenceArrayField key={source} {...common} reference={field.reference} />
      ) : (
        <ReferenceField key={source} {...common} reference={field.reference} link="show" sx={sx} />
      );
    case 'reading':
    case 'password':
      return null;
  }
};
