import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../../mocks/node';
import type { WireRecord } from '../../../src/resources/model';
import { namedField } from '../../../src/providers/dataProvider';
import { creatableLevels, mayCreateAt } from '../../../src/resources/accounts/levels';
import { mockSession, REST, UPSTREAM } from '../resources/fixtures';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const accountsNamed = async (names: string[]) => {
  const { http } = await mockSession('admin');
  return (await http.post<{ list: WireRecord[] }>('/get_Admins', { pageSize: 100, filter: { Account: names } })).list;
};

describe('the level rule', () => {
  it('allows only strictly lower ranks (larger Level numbers)', () => {
    expect(creatableLevels(0)).toEqual([1, 2, 3]);
    expect(creatableLevels(1)).toEqual([2, 3]);
    expect(creatableLevels(3)).toEqual([]);
    expect(mayCreateAt(1, 1)).toBe(false);
    expect(mayCreateAt(1, '2')).toBe(false);
  });
});

describe('the field a 40000 names', () => {
  it.each([
    ['Level: must be lower than your own account level', 'Level'],
    ['Level must be lower than your own account level (Level)', 'Level'],
    ['只能创建比自己级别更低的账号（Level）', 'Level'],
    ['device OC-9 is not one you manage (DeviceIds)', 'DeviceIds'],
    ['DeviceIds.2 must be a string', 'DeviceIds'],
    ['the current password is wrong (OldCode)', 'OldCode'],
    ['account Level already exists', undefined],
    ['Levels: nothing', undefined],
  ])('%s → %s', (message, field) => {
    expect(namedField(message, ['Account', 'Code', 'Level', 'DeviceIds', 'OldCode'])).toBe(field);
  });
});

describe('the mocked account calls (shared schemas, the server\'s answers)', () => {
  it('add_Admin: a first-level administrator creates at Levels 2 and 3 only, under itself', async () => {
    const { http } = await mockSession('user');
    await expect(http.post('/add_Admin', { Account: 'ops1', Code: 'Chamber2026ox', Level: 1 })).rejects.toMatchObject({
      code: 40000,
      message: expect.stringMatching(/^Level/),
    });
    await expect(http.post('/add_Admin', { Account: 'ops1', Code: 'weak', Level: 2 })).rejects.toMatchObject({ code: 40000, message: expect.stringMatching(/^Code/) });
    await expect(http.post('/add_Admin', { Account: 'ops1', Code: 'Chamber2026ox', Level: 2, Extra: 1 })).rejects.toMatchObject({ code: 40000 });
    await expect(http.post('/add_Admin', { Account: 'ops1', Code: 'Chamber2026ox', Level: 2, DeviceIds: ['Id-002', 'Id-001'] })).resolves.toEqual({
      Account: 'ops1',
      SubId: 2,
      Level: 2,
      SubAdmin: 'user',
      DeviceIds: ['Id-001', 'Id-002'],
      Disabled: false,
    });
    await expect(http.post('/add_Admin', { Account: 'ops1', Code: 'Chamber2026ox', Level: 3 })).rejects.toMatchObject({ code: 40000 });
    await expect(http.post('/add_Admin', { Account: 'ops2', Code: 'Chamber2026ox', Level: 3, DeviceIds: ['Id-999'] })).rejects.toMatchObject({
      code: 40000,
      message: expect.stringMatching(/^DeviceIds/),
    });
  });

  it('add_Admin is refused to a client (40300)', async () => {
    const { http } = await mockSession('client');
    await expect(http.post('/add_Admin', { Account: 'ops3', Code: 'Chamber2026ox', Level: 3 })).rejects.toMatchObject({ code: 40300 });
  });

  it('assign_Devices: exactly the given devices; one taken away leaves the subtree too', async () => {
    const { http } = await mockSession('admin');
    // In the seeded data Account-001 is below Account-024, and Account-011 below Account-001.
    expect((await accountsNamed(['Account-001', 'Account-011'])).map((record) => record.SubAdmin)).toEqual(['Account-024', 'Account-001']);
    await http.post('/assign_Devices', { Account: 'Account-001', DeviceIds: ['Id-041', 'Id-040'] });
    await http.post('/assign_Devices', { Account: 'Account-011', DeviceIds: ['Id-041', 'Id-004'] });
    const answer = await http.post<WireRecord>('/assign_Devices', { Account: 'Account-024', DeviceIds: ['Id-041', 'Id-007', 'Id-007'] });
    expect(answer).toMatchObject({ Account: 'Account-024', DeviceIds: ['Id-007', 'Id-041'] });
    // Account-024 lost only devices nobody below it had.
    expect((await accountsNamed(['Account-001', 'Account-011'])).map((record) => record.DeviceIds)).toEqual([
      ['Id-040', 'Id-041'],
      ['Id-004', 'Id-041'],
    ]);
    await http.post('/assign_Devices', { Account: 'Account-024', DeviceIds: ['Id-007'] });
    expect((await accountsNamed(['Account-001', 'Account-011'])).map((record) => record.DeviceIds)).toEqual([['Id-040'], ['Id-004']]);

    await expect(http.post('/assign_Devices', { Account: 'Account-024', DeviceIds: ['Id-999'] })).rejects.toMatchObject({
      code: 40000,
      message: expect.stringMatching(/^DeviceIds/),
    });
    await expect(http.post('/assign_Devices', { Account: 'nobody', DeviceIds: [] })).rejects.toMatchObject({ code: 40400 });
    // A seeded super administrator manages every device by its level.
    const [root] = (await http.post<{ list: WireRecord[] }>('/get_Admins', { pageSize: 1, filter: { Level: 0 } })).list;
    expect(root?.Level).toBe(0);
    await expect(http.post('/assign_Devices', { Account: root?.Account, DeviceIds: [] })).rejects.toMatchObject({
      code: 40000,
      message: expect.stringMatching(/^Account/),
    });
  });

  it('Admin_reset_Code: never one\'s own account, nor a higher one', async () => {
    const { http } = await mockSession('user');
    await expect(http.post('/code/Admin_reset_Code', { Account: 'user' })).rejects.toMatchObject({ code: 40400 });
    await expect(http.post('/code/Admin_reset_Code', { Account: 'admin' })).rejects.toMatchObject({ code: 40400 });
    await expect(http.post('/code/Admin_reset_Code', {})).rejects.toMatchObject({ code: 40000, message: expect.stringMatching(/^Account/) });
  });

  it('update_Admin and delete_Admin: the hierarchy\'s rules of the server, refusals naming the field', async () => {
    const { http } = await mockSession('admin');
    await http.post('/add_Admin', { Account: 'm-lead', Code: 'Chamber2026ox', Level: 1 });
    await http.post('/add_Admin', { Account: 'm-kid', Code: 'Chamber2026ox', Level: 3 });
    await expect(http.post('/update_Admin', { Account: 'm-kid', SubAdmin: 'm-lead' })).resolves.toMatchObject({ Account: 'm-kid', SubAdmin: 'm-lead', Level: 3 });
    await expect(http.post('/update_Admin', { Account: 'm-lead', Level: 3 })).rejects.toMatchObject({ code: 40000, message: 'Level: account m-kid sits directly below at that level or higher' });
    await expect(http.post('/update_Admin', { Account: 'm-lead', SubAdmin: 'm-kid' })).rejects.toMatchObject({ code: 40000, message: 'SubAdmin: m-kid is m-lead itself or an account below it' });
    await expect(http.post('/update_Admin', { Account: 'm-kid', SubAdmin: 'nobody' })).rejects.toMatchObject({ code: 40000, message: 'SubAdmin: administrator nobody is not one of your accounts' });
    await expect(http.post('/update_Admin', { Account: 'm-kid', Level: 0 })).rejects.toMatchObject({ code: 40000, message: 'Level: must be lower than your own account level' });
    await expect(http.post('/update_Admin', { Account: 'm-kid', Disabled: 'yes' })).rejects.toMatchObject({ code: 40000, message: expect.stringMatching(/^Disabled/) });
    await expect(http.post('/delete_Admin', { Account: 'm-lead' })).rejects.toMatchObject({ code: 40000, message: 'Account: accounts sit below m-lead: m-kid' });

    await expect(http.post('/update_Admin', { Account: 'm-kid', Disabled: true })).resolves.toMatchObject({ Disabled: true });
    const disabled = await http.post<{ list: WireRecord[] }>('/get_Admins', { pageSize: 100, filter: { Disabled: true } });
    expect(disabled.list.map((record) => record.Account)).toContain('m-kid');
    expect(disabled.list.every((record) => record.Disabled === true)).toBe(true);

    await expect(http.post('/delete_Admin', { Account: 'm-kid' })).resolves.toBeNull();
    await expect(http.post('/delete_Admin', { Account: 'm-lead' })).resolves.toBeNull();
    expect(await accountsNamed(['m-lead', 'm-kid'])).toEqual([]);
    await expect(http.post('/update_Admin', { Account: 'admin', Disabled: true })).rejects.toMatchObject({ code: 40400 });
  });

  it('update_Admin and delete_Admin are refused to a client (40300)', async () => {
    const { http } = await mockSession('client');
    await expect(http.post('/update_Admin', { Account: 'Account-001', Disabled: true })).rejects.toMatchObject({ code: 40300 });
    await expect(http.post('/delete_Admin', { Account: 'Account-001' })).rejects.toMatchObject({ code: 40300 });
  });
});
