import { fieldEntries, idFields, readableEntries, recordId, type RecordId, type WireRecord } from '../src/resources/model';
import { DEFAULT_DEVICE_TYPES } from '../src/domain/deviceTypes';
import { seededRandomFor, type Random } from '../src/domain/random';
import type { FieldConfig, ResourceConfig } from '../src/resources/types';
import { seededReading } from './readings';
import { seededAlarmRules, seededAlarms } from './alarms';

/** docs/product.md, "The console": every mocked list holds 55 records. */
export const MOCK_TOTAL = 55;
/** Seeded times count back from here, so runs and screenshots are the same every time. */
export const MOCK_EPOCH = Date.UTC(2026, 0, 1, 8);
const HOUR = 3_600_000;

/**
 * Tables whose records are fixed, not generated, made from the generated ones: the five device types and
 * their alarm rules, as the server's migrations seed them, and a handful of alarms on the first chambers.
 */
const FIXED_TABLES: Readonly<Record<string, (generated: ReadonlyMap<string, WireRecord[]>, epoch: number) => WireRecord[]>> = {
  'device-types': (_, epoch) => DEFAULT_DEVICE_TYPES.map((type) => ({ ...type, updatedAt: epoch })),
  'alarm-rules': (_, epoch) => seededAlarmRules(epoch),
  alarms: (generated, epoch) => seededAlarms(generated.get('devices') ?? [], epoch).alarms,
};

export interface SeedOptions {
  /** The time seeded times count back from: MOCK_EPOCH by default. */
  epoch?: number;
  /** Tables given whole rather than generated (the demo's devices and accounts); references point into them. */
  given?: Readonly<Record<string, WireRecord[]>>;
  /** Per resource, how far apart its records' times are: an hour by default. */
  stepMs?: Readonly<Record<string, number>>;
}

/** Whether the mocks seed this resource's records by hand rather than generate them. */
export const isFixedTable = (name: string): boolean => Object.hasOwn(FIXED_TABLES, name);

const text = (source: string, index: number, { minLength = 0, maxLength }: { minLength?: number; maxLength: number }) =>
  `${source}-${String(index + 1).padStart(3, '0')}`.slice(0, maxLength).padEnd(minLength, '0');

interface Place {
  index: number;
  epoch: number;
  stepMs: number;
}

/** A value of the field's kind within its limits; id fields are unique by index, times strictly decrease. */
const valueFor = (field: FieldConfig, source: string, { index, epoch, stepMs }: Place, random: Random, isId: boolean): unknown => {
  switch (field.kind) {
    case 'text':
      return text(source, index, field);
    case 'number': {
      if (isId) return field.min + index;
      // Huge ranges (ids of other records) are kept to a readable thousand.
      const value = field.min + random() * Math.min(field.max - field.min, 1000);
      return field.integer ? Math.round(value) : Math.round(value * 100) / 100;
    }
    case 'enum':
      return field.choices[Math.floor(random() * field.choices.length)];
    case 'boolean':
      return random() < 0.5;
    case 'datetime':
      return epoch - index * stepMs - Math.floor(random() * (stepMs / 2));
    case 'reading':
      return seededReading(index, random, epoch - index * stepMs);
    case 'bloodPressure':
      return `${100 + Math.floor(random() * 60)}/${60 + Math.floor(random() * 30)}`;
    case 'reference':
    case 'password':
      return undefined;
  }
};

const pick = (ids: readonly RecordId[], random: Random) => ids[Math.floor(random() * ids.length)];

/**
 * MOCK_TOTAL records per resource (the fixed tables aside), deterministic per resource name, every value within its field's
 * kind and limits (the seed test checks them against the resource schema); references point at
 * seeded records of the referenced resource.
 */
export const seedTables = (configs: readonly ResourceConfig[], { epoch = MOCK_EPOCH, given = {}, stepMs = {} }: SeedOptions = {}): Map<string, WireRecord[]> => {
  const generatedConfigs = configs.filter((config) => !isFixedTable(config.name) && !Object.hasOwn(given, config.name));
  const tables = new Map([
    ...Object.entries(given),
    ...generatedConfigs.map((config): [string, WireRecord[]] => {
      const random = seededRandomFor(config.name);
      const ids = idFields(config);
      const step = stepMs[config.name] ?? HOUR;
      const records = Array.from({ length: MOCK_TOTAL }, (_, index) =>
        Object.fromEntries(
          readableEntries(config).map(([source, field]) => [source, valueFor(field, source, { index, epoch, stepMs: step }, random, ids.includes(source))]),
        ),
      );
      return [config.name, records];
    }),
  ]);
  for (const config of generatedConfigs) {
    const random = seededRandomFor(`${config.name}:references`);
    for (const [source, field] of fieldEntries(config)) {
      if (field.kind !== 'reference') continue;
      const target = configs.find((candidate) => candidate.name === field.reference);
      const targetIds = (tables.get(field.reference) ?? []).map((record) => (target ? recordId(target, record) : undefined));
      const ids = targetIds.filter((id): id is RecordId => id !== undefined);
      if (ids.length === 0) continue;
      for (const record of tables.get(config.name) ?? []) {
        record[source] = field.many ? [...new Set([pick(ids, random), pick(ids, random)])] : pick(ids, random);
      }
    }
  }
  for (const config of configs) if (isFixedTable(config.name)) tables.set(config.name, FIXED_TABLES[config.name]?.(tables, epoch) ?? []);
  // In the registry's order, as the callers list them.
  return new Map(configs.map((config) => [config.name, tables.get(config.name) ?? []]));
};
