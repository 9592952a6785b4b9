import type { FieldConfig, FormView, ResourceConfig, View } from './types';

/** Reading a resource configuration; shared by the views, the providers, the mocks and the server. */

export type WireRecord = Record<string, unknown>;
export type RecordId = string | number;

/** The largest id of a table with a 32-bit id (PostgreSQL `integer`: orders, accounts); larger ones are bad input, not a 500. */
export const INTEGER_ID_MAX = 2_147_483_647;

export const fieldEntries = (config: ResourceConfig): [string, FieldConfig][] => Object.entries(config.fields);

/** True when the field shows in the view. */
export const shows = (field: FieldConfig, view: View): boolean => (field.views as readonly View[]).includes(view);

export const entriesIn = (config: ResourceConfig, view: View): [string, FieldConfig][] =>
  fieldEntries(config).filter(([, field]) => shows(field, view));

export const sourcesIn = (config: ResourceConfig, view: View): string[] => entriesIn(config, view).map(([source]) => source);

export const fieldOf = (config: ResourceConfig, source: string): FieldConfig | undefined =>
  Object.hasOwn(config.fields, source) ? config.fields[source] : undefined;

export const idFields = (config: ResourceConfig): string[] => (typeof config.id === 'string' ? [config.id] : [...config.id]);

const isComposite = (config: ResourceConfig) => typeof config.id !== 'string';

/** react-admin's `id`: the id field's value, or the JSON of the id fields' values (a state record: device and Time). */
export const recordId = (config: ResourceConfig, record: WireRecord): RecordId => {
  if (!isComposite(config)) return record[config.id as string] as RecordId;
  return JSON.stringify(idFields(config).map((source) => record[source]));
};

/** The id field values a react-admin `id` stands for. */
export const idValues = (config: ResourceConfig, id: RecordId): Record<string, unknown> => {
  if (!isComposite(config)) return { [config.id as string]: id };
  const values: unknown = JSON.parse(String(id));
  if (!Array.isArray(values)) throw new Error(`${config.name}: "${String(id)}" is not one of its ids`);
  return Object.fromEntries(idFields(config).map((source, index) => [source, values[index]]));
};

/** A list filter matching any of the ids, field by field; a composite id may over-match, so callers keep only the ids asked for. */
export const idFilter = (config: ResourceConfig, ids: readonly RecordId[]): Record<string, unknown[]> =>
  Object.fromEntries(
    idFields(config).map((source) => [source, [...new Set(ids.map((id) => idValues(config, id)[source]))]]),
  );

export type ServedAction = 'list' | 'show' | FormView | 'delete';

/** What the resource's server can do: an upstream resource only what it has endpoints for (its own or the REST API's), a REST one everything. */
export const serves = (config: ResourceConfig, action: ServedAction): boolean => {
  if (config.adapter === 'rest' || action === 'list' || action === 'show') return true;
  const { endpoints } = config;
  return Boolean({ create: endpoints.create ?? endpoints.rest?.create, edit: endpoints.update, delete: endpoints.delete ?? endpoints.rest?.delete }[action]);
};

/** The REST path serving an upstream resource's create or delete (UpstreamEndpoints.rest), or undefined. */
export const restWritePath = (config: ResourceConfig, action: 'create' | 'delete'): string | undefined =>
  config.adapter === 'upstream' && config.endpoints.rest?.[action] === true ? config.endpoints.rest.path : undefined;

export const findResource = (configs: readonly ResourceConfig[], name: string): ResourceConfig => {
  const config = configs.find((candidate) => candidate.name === name);
  if (!config) throw new Error(`No resource "${name}" is configured`);
  return config;
};

/**
 * What a form may write: the form's fields, and for an update the id fields naming the record. The views
 * hold whole records; a server refuses fields a form does not show (writeSchema is strict).
 */
export const writable = (config: ResourceConfig, view: FormView, data: Readonly<Record<string, unknown>>): WireRecord => {
  const sources = view === 'edit' ? [...idFields(config), ...sourcesIn(config, view)] : sourcesIn(config, view);
  return Object.fromEntries(sources.filter((source) => source in data).map((source) => [source, data[source]]));
};

/** Every field but the passwords, which are written and never read back. */
export const readableEntries = (config: ResourceConfig): [string, FieldConfig][] =>
  fieldEntries(config).filter(([, field]) => field.kind !== 'password');

export const withoutSecrets = (config: ResourceConfig, record: WireRecord): WireRecord =>
  Object.fromEntries(Object.entries(record).filter(([source]) => fieldOf(config, source)?.kind !== 'password'));
