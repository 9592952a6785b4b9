import type { ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import type { Locale } from '../domain/locales';
import type { MenuGroup } from '../domain/menu';
import type { crudZhCN } from './i18n/crud.zh-CN';

/**
 * A resource is declared once, as data: its fields, where each shows, how it is served and how it is
 * labelled. Views, the zod schema, the data provider routing and the mock handlers are derived from it.
 * Plain TypeScript (the imports above are types only), so mocks/ and server/ import it too.
 * Who may do what is not declared here: the shared policy (src/domain/policy.ts) decides, keyed by name.
 */

/** Where a field shows: a list column (`list`), a list filter, a sortable column, the show page, the forms. */
export type View = 'list' | 'filter' | 'sort' | 'show' | 'edit' | 'create';
export type FormView = Extract<View, 'edit' | 'create'>;

/** Units are translated under `crud.units` (a minute is 分钟 in Chinese). */
export type Unit = keyof (typeof crudZhCN)['crud']['units'];

interface FieldBase {
  views: readonly View[];
  /** The forms and the server refuse a record without it. */
  required?: boolean;
}

/** Text always has a maximum length, so neither the console nor the server takes unbounded input. */
interface TextFieldConfig extends FieldBase {
  kind: 'text';
  maxLength: number;
  minLength?: number;
  pattern?: RegExp;
  defaultValue?: string;
}

interface NumberFieldConfig extends FieldBase {
  kind: 'number';
  min: number;
  max: number;
  integer?: boolean;
  unit?: Unit;
  defaultValue?: number;
  /**
   * The resource whose record of that id names the value: a device's Type shows its type's name (the
   * representation), is picked from those names, and is still stored and validated as the number.
   */
  namedBy?: string;
  /**
   * A unit that differs from record to record, named by another field's value: an alarm's value is in its
   * kind's unit (23.6 % oxygen, 2.1 ATA). Shown beside each value, since no one unit fits the label.
   */
  unitBy?: UnitBy;
}

/** A unit per value of another field of the record (`source`): an alarm's kind names its value's unit. */
export interface UnitBy {
  source: string;
  units: Readonly<Partial<Record<string, Unit>>>;
}

/** A choice's colour where it tells the reader something at a glance (an alarm's priority); its label is always shown with it. */
export type Tone = 'error' | 'warning' | 'info' | 'success' | 'default';

/** Choices are labelled per language in `labels[locale].choices[source][value]`. */
export interface EnumFieldConfig extends FieldBase {
  kind: 'enum';
  choices: readonly (string | number)[];
  defaultValue?: string | number;
  /** Shown as a chip of this colour per choice, rather than as plain text. */
  tones?: Readonly<Partial<Record<string, Tone>>>;
  /** Its list filter picks any number of choices (an alarm's states), rather than one. */
  filterMany?: boolean;
}

interface BooleanFieldConfig extends FieldBase {
  kind: 'boolean';
  defaultValue?: boolean;
}

/** Epoch milliseconds on the wire, as the server stores times and devices report them. */
interface DateTimeFieldConfig extends FieldBase {
  kind: 'datetime';
}

/** The id (or, with `many`, the ids) of a record of another resource. */
interface ReferenceFieldConfig extends FieldBase {
  kind: 'reference';
  reference: string;
  many?: boolean;
  /** The text field of the referenced resource that its picker searches. */
  searchBy: string;
  /** The referenced record's field a reference shows (an alarm's device by its Id); its representation by default. */
  shows?: string;
}

/** "systolic/diastolic" in mmHg, as the chambers report it. */
interface BloodPressureFieldConfig extends FieldBase {
  kind: 'bloodPressure';
}

/**
 * A device's newest reading, a telemetry payload (src/domain/mqtt/payloads.ts) as ingestion keeps it: read
 * by views of their own (the oxygen monitor), never a form input, a filter or a generated column.
 */
interface ReadingFieldConfig extends FieldBase {
  kind: 'reading';
  views: readonly never[];
}

/** A new password: only ever written (create/edit), checked by the password rule, never listed or shown. */
interface PasswordFieldConfig extends FieldBase {
  kind: 'password';
  views: readonly FormView[];
}

export type FieldConfig =
  | TextFieldConfig
  | NumberFieldConfig
  | EnumFieldConfig
  | BooleanFieldConfig
  | DateTimeFieldConfig
  | ReferenceFieldConfig
  | BloodPressureFieldConfig
  | ReadingFieldConfig
  | PasswordFieldConfig;
export type Fields = Record<string, FieldConfig>;

/** The upstream's POST calls; a missing one means the upstream cannot do it, and the console offers no button. */
export interface UpstreamEndpoints {
  list: string;
  create?: string;
  update?: string;
  delete?: string;
  /**
   * Writes the REST API serves for this upstream resource, under the REST base and `path` (`POST path`,
   * `DELETE path/:id`), answering the record as the upstream lists it: a device's registration and removal,
   * which issue and revoke its MQTT secret (docs/server-devices.md).
   */
  rest?: { path: string; create?: true; delete?: true };
}

/** The upstream's own calls, each a path under its base. */
export type UpstreamCall = Exclude<keyof UpstreamEndpoints, 'rest'>;

/** Served by the upstream contract, or by ra-data-simple-rest under the REST base (`path` defaults to the name). */
type Served =
  | { adapter: 'upstream'; endpoints: UpstreamEndpoints }
  | { adapter: 'rest'; path?: string };

/** What react-admin and the catalogues need for one language (a type, not an interface, so it is a message map). */
export type ResourceMessages = {
  /** 'singular |||| plural', as react-admin's smart_count expects. */
  name: string;
  fields: Record<string, string>;
  choices: Record<string, Record<string, string>>;
  /** react-admin's own messages worded for this resource (its delete confirmation: `delete_title`, `delete_content`). */
  message?: ResourceConfirmations;
};

/** The delete confirmation's words, with react-admin's `%{recordRepresentation}` and `%{id}`. */
type ResourceConfirmations = { delete_title: string; delete_content: string };

type ChoiceOf<F> = F extends { kind: 'enum'; choices: readonly (infer C)[] } ? C : never;

/** The messages of one language, with a label for every field and every enum choice (checked by the compiler). */
interface TypedResourceMessages<F extends Fields> {
  name: string;
  fields: { [K in keyof F]: string };
  choices: { [K in keyof F as F[K] extends { kind: 'enum' } ? K : never]: Record<`${ChoiceOf<F[K]> & (string | number)}`, string> };
  message?: ResourceConfirmations;
}

type Source<F> = keyof F & string;

interface ConfigBase<F extends Fields> {
  /** react-admin resource name and policy key. */
  name: string;
  labels: Record<Locale, NoInfer<TypedResourceMessages<F>>>;
  /** Its menu entry: the group and position, and the policy action a role needs to see it (`list` by default). */
  menu: { group: MenuGroup; order: number; action?: 'list' | 'edit' };
  /** The field naming a record, or the fields that together do (a state record is its device and Time). */
  id: Source<F> | readonly Source<F>[];
  /** What a reference to a record shows. */
  representation: Source<F>;
  defaultSort: { field: Source<F>; order: 'ASC' | 'DESC' };
  /**
   * A list that can match millions of records (the readings log) counts at most this many: beyond it the
   * answer's `total` is only a lower bound and says so (ListAnswer.totalIsLowerBound; docs/server-lists.md).
   */
  countUpTo?: number;
  /**
   * The list's filter until the reader changes it (the alarms: every state but closed); its fields' inputs are
   * always shown, so what narrows the list is in sight.
   */
  defaultFilter?: Readonly<Partial<Record<Source<F>, string | number | boolean | readonly (string | number)[]>>>;
  fields: F;
}

export type TypedResourceConfig<F extends Fields> = ConfigBase<F> & Served;

/** Any resource, as generic code (views, providers, mocks) handles it. */
export type ResourceConfig = ConfigBase<Fields> & Served & { labels: Record<Locale, ResourceMessages> };

/** Declares a resource; the field sources and choices type its labels, so a missing label fails the build. */
export const defineResource = <const F extends Fields>(config: TypedResourceConfig<F>): TypedResourceConfig<F> & ResourceConfig =>
  config;

/** Hand-written views that replace generated ones; the rest stays generated from the same configuration. */
interface ViewOverrides {
  list?: ComponentType;
  show?: ComponentType;
  edit?: ComponentType;
  create?: ComponentType;
}

/** The React side of a resource, given in its index.ts. */
export interface ResourceUi {
  icon: ComponentType;
  overrides?: ViewOverrides;
  /** Extra buttons in each row of the generated list (commands such as a device's permission). */
  rowActions?: ComponentType;
  /**
   * Shown over the create form once the record is saved, instead of going to it at once (a device's secret,
   * shown once); `done` goes on to the record's page.
   */
  created?: ComponentType<{ record: RaRecord; done: () => void }>;
}
