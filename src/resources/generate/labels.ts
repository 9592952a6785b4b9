import { useMemo } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { fieldOf } from '../model';
import type { EnumFieldConfig, FieldConfig, ResourceConfig, Unit, UnitBy } from '../types';

const unitOf = (field: FieldConfig | undefined): Unit | undefined => {
  if (field?.kind === 'number') return field.unit;
  return field?.kind === 'bloodPressure' ? 'mmHg' : undefined;
};

/** The unit a record names for a field whose unit varies (an alarm's kind → its value's unit). */
export const unitNamedBy = (unitBy: UnitBy, record: Readonly<Record<string, unknown>> | undefined): Unit | undefined =>
  record === undefined ? undefined : unitBy.units[String(record[unitBy.source])];

export interface Choice {
  id: string | number;
  name: string;
}

/** Choices whose names are catalogue keys; react-admin's choice components translate them. */
export const choicesOf = (config: ResourceConfig, source: string, field: EnumFieldConfig): Choice[] =>
  field.choices.map((id) => ({ id, name: `resources.${config.name}.choices.${source}.${id}` }));

export interface Labels {
  /** A field's label in the current language, with its unit: "舱内压力 (ATA)". */
  field(source: string): string;
  locale: string;
}

export const useLabels = (config: ResourceConfig): Labels => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return useMemo(
    () => ({
      field: (source) => {
        const label = translate(`resources.${config.name}.fields.${source}`);
        const unit = unitOf(fieldOf(config, source));
        return unit ? `${label} (${translate(`crud.units.${unit}`)})` : label;
      },
      locale,
    }),
    [config, translate, locale],
  );
};
