import type { ReactElement } from 'react';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  DateTimeInput,
  NullableBooleanInput,
  NumberInput,
  PasswordInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectArrayInput,
  SelectInput,
  TextInput,
  useRecordContext,
  useTranslate,
  type NumberInputProps,
} from 'react-admin';
import type { FieldConfig, ResourceConfig, UnitBy } from '../types';
import { choicesOf, unitNamedBy, type Labels } from './labels';
import { localInputTime } from '../../domain/time';

/** A number input labelled with the unit the edited record names (a rule's limit in its kind's unit). */
const NumberInputInUnit = ({ unitBy, label, ...props }: NumberInputProps & { label: string; unitBy: UnitBy }) => {
  const translate = useTranslate();
  const record = useRecordContext();
  const unit = unitNamedBy(unitBy, record);
  return <NumberInput {...props} label={unit ? `${label} (${translate(`crud.units.${unit}`)})` : label} />;
};

interface InputOptions {
  source?: string;
  label?: string;
  alwaysOn?: boolean;
}

/** The react-admin input for a value of this kind, in a form or as a filter. */
export const inputElement = (
  config: ResourceConfig,
  source: string,
  field: FieldConfig,
  labels: Labels,
  { source: inputSource = source, label = labels.field(source), alwaysOn }: InputOptions = {},
  asFilter = false,
): ReactElement => {
  const common = { source: inputSource, label, ...(alwaysOn ? { alwaysOn } : {}) };
  switch (field.kind) {
    case 'text':
      return <TextInput key={inputSource} {...common} />;
    case 'bloodPressure':
      return <TextInput key={inputSource} {...common} placeholder="120/80" />;
    case 'password':
      return <PasswordInput key={inputSource} {...common} autoComplete="new-password" />;
    case 'number':
      // Picked by the name of the record it stands for (a device type), stored as the number.
      if (field.namedBy) {
        return (
          <ReferenceInput key={inputSource} {...common} reference={field.namedBy}>
            <SelectInput label={label} />
          </ReferenceInput>
        );
      }
      if (field.unitBy && !asFilter) return <NumberInputInUnit key={inputSource} {...common} unitBy={field.unitBy} min={field.min} max={field.max} step={field.integer ? 1 : 0.01} />;
      return <NumberInput key={inputSource} {...common} min={field.min} max={field.max} step={field.integer ? 1 : 0.01} />;
    case 'enum':
      return asFilter && field.filterMany ? (
        // Its chosen values wrap rather than widen the filter bar past the page (five states in English).
        <SelectArrayInput key={inputSource} {...common} choices={choicesOf(config, source, field)} sx={{ maxWidth: 420 }} />
      ) : (
        // A required choice in a form offers no empty one; a filter's always may mean "any".
        <SelectInput key={inputSource} {...common} choices={choicesOf(config, source, field)} isRequired={!asFilter && field.required === true} />
      );
    case 'boolean':
      // A filter must also be able to mean "either".
      return asFilter ? <NullableBooleanInput key={inputSource} {...common} /> : <BooleanInput key={inputSource} {...common} />;
    case 'datetime':
      // The input holds local "yyyy-MM-ddThh:mm"; the wire holds epoch milliseconds.
      return <DateTimeInput key={inputSource} {...common} parse={localInputTime} />;
    case 'reference': {
      const search = (text: string) => (text ? { [field.searchBy]: text } : {});
      return field.many ? (
        <ReferenceArrayInput key={inputSource} {...common} reference={field.reference}>
          <AutocompleteArrayInput label={label} filterToQuery={search} />
        </ReferenceArrayInput>
      ) : (
        <ReferenceInput key={inputSource} {...common} reference={field.reference}>
          <AutocompleteInput label={label} filterToQuery={search} />
        </ReferenceInput>
      );
    }
    case 'reading':
      // Its configuration allows no form or filter view, so no caller reaches this.
      throw new Error(`${source}: a reading has no input`);
  }
};
