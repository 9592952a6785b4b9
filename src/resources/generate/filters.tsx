import type { ReactElement } from 'react';
import type { TranslateFunction } from 'react-admin';
import { entriesIn } from '../model';
import type { ResourceConfig } from '../types';
import { inputElement } from './inputs';
import type { Labels } from './labels';

/**
 * The list's filters: one input per filter field, two (from, to) for numbers and times (a number another
 * resource names, such as a device's Type, is picked by name); the first
 * filter field and those of the default filter are always shown, the others are added through
 * react-admin's filter button.
 */
export const filterElements = (config: ResourceConfig, labels: Labels, translate: TranslateFunction): ReactElement[] =>
  entriesIn(config, 'filter').flatMap(([source, field], index) => {
      const alwaysOn = index === 0 || Object.hasOwn(config.defaultFilter ?? {}, source);
      const isRange = (field.kind === 'number' && !field.namedBy) || field.kind === 'datetime';
      if (!isRange) return [inputElement(config, source, field, labels, { alwaysOn }, true)];
      const name = labels.field(source);
      return (['from', 'to'] as const).map((bound) =>
        inputElement(
          config,
          source,
          field,
          labels,
          { source: `${source}_${bound === 'from' ? 'gte' : 'lte'}`, label: translate(`crud.filters.${bound}`, { field: name }), alwaysOn },
          true,
        ),
      );
    });
