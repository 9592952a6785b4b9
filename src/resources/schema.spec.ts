import { describe, expect, it } from 'vitest';
import { accountsConfig } from './accounts/config';
import { devicesConfig } from './devices/config';
import { keySchema, recordSchema, resourceSchema, writeSchema } from './schema';
import { isBloodPressure } from '../domain/bloodPressure';
import { stateRecordsConfig } from './state-records/config';
import { formValidator } from './validation';

describe('the schema derived from a resource configuration', () => {
  it('takes the limits of each field kind', () => {
    const schema = resourceSchema(stateRecordsConfig);
    const reading = { Id: 'OC-1', Time: 1_700_000_000_000, RCPi02: 21.5, HmHR: 72, SS: 'F', L: 1, HmBP: '120/80' };
    expect(schema.safeParse(reading).success).toBe(true);
    expect(schema.safeParse({ ...reading, RCPi02: 100.1 }).success).toBe(false);
    expect(schema.safeParse({ ...reading, HmHR: 72.5 }).success).toBe(false);
    expect(schema.safeParse({ ...reading, SS: 'X' }).success).toBe(false);
    expect(schema.safeParse({ ...reading, L: 2 }).success).toBe(false);
    expect(schema.safeParse({ ...reading, Time: '2026-01-01' }).success).toBe(false);
    expect(schema.safeParse({ ...reading, HmBP: '80/120' }).success).toBe(false);
    expect(schema.safeParse({ ...reading, Time: undefined }).success).toBe(false);
    expect(schema.safeParse({ ...reading, RCT: null }).success).toBe(true);
  });

  it('reads blood pressure as systolic/diastolic within human limits', () => {
    expect(['120/80', '90/60', '200/110'].every(isBloodPressure)).toBe(true);
    expect(['120', '80/120', '120/80/60', '400/80', '120/10', ' 120/80'].some(isBloodPressure)).toBe(false);
  });

  it('writes only what a form shows, plus the id fields for an update', () => {
    const edit = writeSchema(devicesConfig, 'edit');
    const device = { Id: 'OC-1', name: 'North 1', Type: 2, Location: 'Hall A' };
    expect(edit.parse(device)).toEqual(device);
    expect(edit.safeParse({ ...device, State: 'Work' }).success).toBe(false);
    expect(edit.safeParse({ ...device, Id: undefined }).success).toBe(false);
    expect(edit.safeParse({ ...device, Type: 6 }).success).toBe(false);
    expect(edit.safeParse({ ...device, Location: 'x'.repeat(129) }).success).toBe(false);
    expect(keySchema(devicesConfig).parse({ Id: 'OC-1' })).toEqual({ Id: 'OC-1' });
  });

  it('checks a new account: password rule, level, devices', () => {
    const create = writeSchema(accountsConfig, 'create');
    const account = { Account: 'ops1', Code: 'Chamber2026', Level: 2, DeviceIds: ['OC-1'] };
    expect(create.safeParse(account).success).toBe(true);
    expect(create.safeParse({ ...account, Code: 'short' }).success).toBe(false);
    expect(create.safeParse({ ...account, Level: 4 }).success).toBe(false);
    expect(create.safeParse({ ...account, SubAdmin: 'admin' }).success).toBe(false);
    expect(recordSchema(accountsConfig).shape).not.toHaveProperty('Code');
  });
});

describe('formValidator', () => {
  const validate = formValidator(writeSchema(accountsConfig, 'create'));

  it('translates zod issues into our message keys with their arguments', () => {
    expect(validate({ Account: '', Code: 'abc', Level: 9, DeviceIds: [] })).toEqual({
      Account: { message: 'crud.validation.required', args: {} },
      Code: { message: 'crud.validation.password', args: {} },
      Level: { message: 'crud.validation.oneOf', args: { values: '0, 1, 2, 3' } },
    });
    expect(validate({ Account: 'x'.repeat(65), Code: 'Chamber2026', Level: 3 })).toEqual({
      Account: { message: 'crud.validation.tooLong', args: { max: 64 } },
    });
  });

  it('names number limits, whole numbers and formats', () => {
    const device = formValidator(writeSchema(devicesConfig, 'edit'));
    const base = { Id: 'OC-1', name: 'North 1', Type: 2, Location: 'Hall A', State: 'Work', id: 'OC-1' };
    expect(device(base)).toEqual({});
    expect(device({ ...base, Type: 0 })).toEqual({ Type: { message: 'crud.validation.tooSmall', args: { min: 1 } } });
    expect(device({ ...base, Type: 9 })).toEqual({ Type: { message: 'crud.validation.tooBig', args: { max: 5 } } });
    expect(device({ ...base, Type: 1.5 })).toEqual({ Type: { message: 'crud.validation.integer', args: {} } });
    expect(device({ ...base, Id: 'OC 1' })).toEqual({ Id: { message: 'crud.validation.pattern', args: {} } });
  });
});
