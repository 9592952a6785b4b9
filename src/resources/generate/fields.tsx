import type { ReactElement } from 'react';
import {
  BooleanField,
  DateField,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SelectField,
  TextField,
} from 'react-admin';
import type { FieldConfig, ResourceConfig } from '../types';
import { choicesOf, type Labels } from './labels';

/** The react-admin field that shows a value of this kind; null for what is never shown (passwords). */
export const fieldElement = (
  config: ResourceConfig,
  source: string,
  field: FieldConfig,
  labels: Labels,
  sortable = true,
): ReactElement | null => {
  const common = { source, label: labels.field(source), sortable };
  switch (field.kind) {
    case 'text':
    case 'bloodPressure':
      return <TextField key={source} {...common} />;
    case 'number':
      return <NumberField key={source} {...common} options={{ maximumFractionDigits: 2 }} />;
    case 'enum':
      return <SelectField key={source} {...common} choices={choicesOf(config, source, field)} />;
    case 'boolean':
      return <BooleanField key={source} {...common} />;
    case 'datetime':
      return <DateField key={source} {...common} showTime locales={labels.locale} />;
    case 'reference':
      return field.many ? (
        <ReferenceArrayField key={source} {...common} reference={field.reference} />
      ) : (
        <ReferenceField key={source} {...common} reference={field.reference} link="show" />
      );
    case 'reading':
    case 'password':
      return null;
  }
};
