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
const FIXED_TABLES: Readonly<Record<string, (generated: ReadonlyMap<string, WireRecord[]>) => WireRecord[]>> = {
  'device-types': () => DEFAULT_DEVICE_TYPES.map((type) => ({ ...type, updatedAt: MOCK_EPOCH })),
  'alarm-rules': () => seededAlarmRules(MOCK_EPOCH),
  alarms: (generated) => seededAlarms(generated.get('devices') ?? [], MOCK_EPOCH).alarms,
};

/** Whether the mocks seed this resource's records by hand rather than generate them. */
export const isFixedTable = (name: string): boolean => Object.hasOwn(FIXED_TABLES, name);

const text = (source: string, index: number, { minLength = 0, maxLength }: { minLength?: number; maxLength: number }) =>
  `${source}-${String(index + 1).padStart(3, '0')}`.slice(0, maxLength).padEnd(minLength, '0');

/** A value of the field's kind within its limits; id fields are unique by index, times strictly decrease. */
const valueFor = (field: FieldConfig, source: string, index: number, random: Random, isId: boolean): unknown => {
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
      return MOCK_EPOCH - index * HOUR - Math.floor(random() * (HOUR / 2));
    case 'reading':
      return seededReading(index, random, MOCK_EPOCH - index * HOUR);
    case 'bloodPressure':
      return `${100 + Math.floor(random() * 60)}/${60 + Math.floor(random() * 30)}`;
    case 'reference':
    case 'password':
      return undefined;
  }
};

/** How many of the seeded chambers the mock client manages: the first ones. */
export const MOCK_CLIENT_DEVICES = 10;

/**
 * The sign-in accounts close the accounts table, in place of its last three generated ones, in a tree the
 * scope rules (mocks/scope.ts) can read: admin at the root, user under it managing every chamber, client
 * under user managing the first MOCK_CLIENT_DEVICES. The generated accounts keep their generated upper
 * administrators: only a super administrator sees them.
 */
const placeSignInAccounts = (tables: Map<string, WireRecord[]>): void => {
  const accounts = tables.get('accounts');
  if (accounts === undefined || accounts.length < 3) return;
  const devices = (tables.get('devices') ?? []).map((device) => device.Id);
  accounts.splice(
    -3,
    3,
    { Account: 'admin', SubId: null, Level: 0, SubAdmin: null, DeviceIds: [] },
    { Account: 'user', SubId: 1, Level: 1, SubAdmin: 'admin', DeviceIds: devices },
    { Account: 'client', SubId: 2, Level: 3, SubAdmin: 'user', DeviceIds: devices.slice(0, MOCK_CLIENT_DEVICES) },
  );
};

const pick = (ids: readonly RecordId[], random: Random) => ids[Math.floor(random() * ids.length)];

/**
 * MOCK_TOTAL records per resource (the fixed tables aside), deterministic per resource name, every value within its field's
 * kind and limits (the seed test checks them against the resource schema); references point at
 * seeded records of the referenced resource.
 */
export const seedTables = (configs: readonly ResourceConfig[]): Map<string, WireRecord[]> => {
  const generatedConfigs = configs.filter((config) => !isFixedTable(config.name));
  const tables = new Map(
    generatedConfigs.map((config) => {
      const random = seededRandomFor(config.name);
      const ids = idFields(config);
      const records = Array.from({ length: MOCK_TOTAL }, (_, index) =>
        Object.fromEntries(
          readableEntries(config).map(([source, field]) => [source, valueFor(field, source, index, random, ids.includes(source))]),
        ),
      );
      return [config.name, records];
    }),
  );
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
  for (const config of configs) if (isFixedTable(config.name)) tables.set(config.name, FIXED_TABLES[config.name]?.(tables) ?? []);
  placeSignInAccounts(tables);
  // In the registry's order, as the callers list them.
  return new Map(configs.map((config) => [config.name, tables.get(config.name) ?? []]));
};
