import type { ComponentType, ReactElement } from 'react';
import type { RaRecord } from 'react-admin';
import { fieldOf, serves } from '../model';
import type { ResourceConfig, ResourceUi } from '../types';
import { lazyView } from '../../loading/lazyView';

const ResourceList = lazyView(() => import('./ResourceList').then((module) => module.ResourceList));
const ResourceShow = lazyView(() => import('./ResourceShow').then((module) => module.ResourceShow));
const ResourceEdit = lazyView(() => import('./ResourceForm').then((module) => module.ResourceEdit));
const ResourceCreate = lazyView(() => import('./ResourceForm').then((module) => module.ResourceCreate));

/** What `<Resource {...resource} />` needs, plus the configuration it came from (in `options`, as react-admin allows). */
export interface ConsoleResource {
  name: string;
  icon: ComponentType;
  list: ComponentType | ReactElement;
  show: ComponentType | ReactElement;
  edit?: ComponentType | ReactElement;
  create?: ComponentType | ReactElement;
  recordRepresentation: (record: RaRecord) => string;
  options: { config: ResourceConfig };
}

/**
 * A resource's react-admin definition, generated from its configuration: list and show always, edit
 * and create when its server can do them (the policy then decides who sees them), overrides first.
 * Each generated view is keyed by its resource: the route table shows several resources' lists in the
 * same place (the readings log, the device manager), so without a key a move from one to another kept
 * the same component, and its query showed the first resource's records under the second's columns
 * (react-admin keeps a list's previous data while the next loads) until the second's were rendered.
 */
export const generateResource = (config: ResourceConfig, { icon, overrides = {}, rowActions, created }: ResourceUi): ConsoleResource => ({
  name: config.name,
  icon,
  list: overrides.list ?? <ResourceList key={config.name} config={config} rowActions={rowActions} />,
  show: overrides.show ?? <ResourceShow key={config.name} config={config} />,
  ...(serves(config, 'edit') ? { edit: overrides.edit ?? <ResourceEdit key={config.name} config={config} /> } : {}),
  ...(serves(config, 'create') ? { create: overrides.create ?? <ResourceCreate key={config.name} config={config} created={created} /> } : {}),
  recordRepresentation: (record) => {
    const value: unknown = record[config.representation] ?? record.id;
    // A time names a state record: show it as one, not as epoch milliseconds.
    return fieldOf(config, config.representation)?.kind === 'datetime' ? new Date(Number(value)).toLocaleString() : String(value);
  },
  options: { config },
});
