import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/node';
import { DEFAULT_PASSWORD_MIN_LENGTH, passwordProblem } from '../domain/password';
import { RESOURCE_CONFIGS } from '../resources/configs';
import { mockSession, REST, UPSTREAM } from '../../tests/unit/resources/fixtures';
import { policyWithSites, sitesConfig } from '../../tests/unit/resources/sites';
import { createDataProvider, type ConsoleDataProvider } from './dataProvider';

const resources = [...RESOURCE_CONFIGS, sitesConfig];
const server = createMockServer(UPSTREAM, REST, { resources, canAccess: policyWithSites });
const urls: string[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => {
    urls.push(`${request.method} ${new URL(request.url).pathname}`);
  });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const console_ = async (account = 'admin'): Promise<ConsoleDataProvider> =>
  createDataProvider({ ...(await mockSession(account)), restBase: REST, resources });
const page = { pagination: { page: 1, perPage: 5 }, sort: { field: 'id', order: 'ASC' as const }, filter: {} };

describe('the composite data provider', () => {
  it('routes each resource by its configuration: upstream POST, or REST under its path', async () => {
    const provider = await console_();
    urls.length = 0;
    await provider.getList('devices', page);
    await provider.getList('sites', page);
    await provider.getMany('sites', { ids: [1, 2] });
    expect(urls).toEqual(['POST /upstream/list/get_OCProperty', 'GET /api/v1/chamber-sites', 'GET /api/v1/chamber-sites']);
  });

  it('rejects a resource no configuration declares, naming it', async () => {
    await expect((await console_()).getOne('maintenance-plans', { id: 1 })).rejects.toThrow('No resource "maintenance-plans" is configured');
  });
});

describe('custom methods', () => {
  const device = async (provider: ConsoleDataProvider, id: string) => (await provider.getOne('devices', { id })).data;

  it('changePermission posts { Id } to order/change_permission and the device switches', async () => {
    const provider = await console_('user');
    const before = await device(provider, 'Id-004');
    await provider.changePermission({ Id: 'Id-004' });
    expect((await device(provider, 'Id-004')).Permission).toBe(before.Permission === 'Open' ? 'Close' : 'Open');
  });

  it('changeState posts { Id, State } to order/change_state', async () => {
    const provider = await console_();
    await provider.changeState({ Id: 'Id-004', State: 'Repair' });
    expect((await device(provider, 'Id-004')).State).toBe('Repair');
  });

  it.each(['changePermission', 'changeState'] as const)('%s with an empty device Id fails with code 401 "device ID cannot be empty"', async (method) => {
    const provider = await console_();
    await expect(provider[method]({ Id: '', State: 'Work' })).rejects.toMatchObject({ code: 401, message: 'device ID cannot be empty' });
  });

  it('resetPassword answers a NewCode that keeps the password rule', async () => {
    const { NewCode } = await (await console_()).resetPassword({ Account: 'Account-001' });
    expect(passwordProblem(NewCode, { minLength: DEFAULT_PASSWORD_MIN_LENGTH })).toBeNull();
  });

  it('changeOwnPassword needs the old password and a new one that keeps the rule', async () => {
    const provider = await console_('user');
    await expect(provider.changeOwnPassword({ OldCode: 'wrong', NewCode: 'Chamber2026ox' })).rejects.toMatchObject({ code: 40000 });
    await expect(provider.changeOwnPassword({ OldCode: 'User2026', NewCode: 'weak' })).rejects.toMatchObject({ code: 40000 });
    await expect(provider.changeOwnPassword({ OldCode: 'User2026', NewCode: 'Chamber2026ox' })).resolves.toBeUndefined();
  });
});
