import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../../mocks/node';
import { MOCK_TOTAL } from '../../mocks/seed';
import { mockSession, REST, UPSTREAM } from '../../tests/unit/resources/fixtures';
import { policyWithSites, sitesConfig } from '../../tests/unit/resources/sites';
import { createRestProvider } from './rest';

const server = createMockServer(UPSTREAM, REST, { resources: [sitesConfig], canAccess: policyWithSites });
const authorizations: (string | null)[] = [];
const languages: (string | null)[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => {
    if (!request.url.startsWith(REST)) return;
    authorizations.push(request.headers.get('authorization'));
    languages.push(request.headers.get('accept-language'));
  });
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const rest = async (account?: string) => createRestProvider(REST, (await mockSession(account)).tokens);

describe('REST adapter (ra-data-simple-rest under /api/v1)', () => {
  it('sends the same bearer token as the upstream calls and reads the total from Content-Range', async () => {
    const { tokens } = await mockSession('admin');
    const provider = createRestProvider(REST, tokens);
    const { data, total } = await provider.getList('chamber-sites', {
      pagination: { page: 2, perPage: 20 },
      sort: { field: 'name', order: 'DESC' },
      filter: {},
    });
    expect(authorizations.at(-1)).toBe(`Bearer ${tokens.get()}`);
    expect(total).toBe(MOCK_TOTAL);
    expect(data).toHaveLength(20);
    const names = data.map((site) => String(site.name));
    expect([...names].sort().reverse()).toEqual(names);
  });

  it("asks for messages in the console's language, whatever the browser's", async () => {
    const { tokens } = await mockSession('admin');
    let locale = 'en-US';
    const provider = createRestProvider(REST, tokens, () => locale);
    await provider.getOne('chamber-sites', { id: 1 });
    expect(languages.at(-1)).toBe('en-US');
    locale = 'zh-CN';
    await provider.getOne('chamber-sites', { id: 1 });
    expect(languages.at(-1)).toBe('zh-CN');
  });

  it('creates, reads, updates and deletes by id', async () => {
    const provider = await rest('admin');
    const { data: created } = await provider.create('chamber-sites', { data: { name: 'Harbour', chambers: 4, certified: true } });
    expect(created).toMatchObject({ id: MOCK_TOTAL + 1, name: 'Harbour' });
    await provider.update('chamber-sites', { id: created.id, data: { ...created, city: 'Ningbo' }, previousData: created });
    await expect(provider.getOne('chamber-sites', { id: created.id })).resolves.toMatchObject({ data: { city: 'Ningbo' } });
    await provider.delete('chamber-sites', { id: created.id, previousData: created });
    await expect(provider.getOne('chamber-sites', { id: created.id })).rejects.toMatchObject({ status: 404 });
  });

  it('gets 401 without sign-in (the authProvider then signs out) and 403 for a role the policy refuses', async () => {
    await expect((await rest()).getOne('chamber-sites', { id: 1 })).rejects.toMatchObject({ status: 401 });
    await expect((await rest('user')).create('chamber-sites', { data: { name: 'x', chambers: 1 } })).rejects.toMatchObject({ status: 403 });
  });
});
