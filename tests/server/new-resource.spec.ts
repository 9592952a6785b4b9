import type { FastifyInstance } from 'fastify';
import { sql, type Generated, type Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DB } from '../../server/db/schema';
import { badInput } from '../../server/http/envelope';
import { renderList } from '../../server/lists/answer';
import { viewerSource } from '../../server/lists/compiled';
import { column, defineListing } from '../../server/lists/listing';
import type { ServedResource } from '../../server/resources/served';
import { restErrorHandler } from '../../server/rest/errors';
import { registerRestList } from '../../server/rest/list';
import { REST_PREFIX } from '../../server/rest/plugin';
import { registerRestWrites } from '../../server/rest/writes';
import type { Viewer } from '../../server/scope/service';
import { canAccess, POLICY } from '../../src/domain/policy';
import type { RoleList } from '../../src/domain/roles';
import { sitesConfig } from '../unit/resources/sites';
import { demoTokens, seedFleet, type DemoName } from './fleet';
import { STORE_KINDS, useStore } from './stores';

/**
 * docs/adding-a-resource.md on the server, tested: the `sites` of tests/unit/resources/sites.ts, served by
 * this server over a table of its own, created, edited and deleted through the derived writes
 * (server/rest/writes.ts). Below is all a new resource brings: its table (step 6, the migration), its
 * entry (step 5, server/sites/list.ts) and its line in the policy (step 4); no route, no audit vocabulary.
 */

/** The table a migration would create (server/db/migrations.ts, withId). */
interface SitesTable {
  id: Generated<number>;
  name: string;
  city: string | null;
  chambers: number;
  grade: string | null;
  certified: number;
}
type WithSites = DB & { sites: SitesTable };

const siteListing = defineListing(sitesConfig, {
  id: column('s.id', 'number'),
  name: column('s.name', 'text'),
  city: column('s.city', 'text', true),
  chambers: column('s.chambers', 'number'),
  grade: column('s.grade', 'text', true),
  certified: column('s.certified', 'flag'),
});

/**
 * Its scope: the super administrator sees every site, the others all but the restricted city's (a literal:
 * the list's SQL is compiled once per level, so only the viewer's id may be bound).
 */
const RESTRICTED = 'Restricted';
const visibleSites = (db: Kysely<DB>, viewer: Viewer) => {
  const sites = (db as unknown as Kysely<WithSites>).selectFrom('sites as s');
  return viewer.level === 0 ? sites : sites.where((eb) => eb.or([eb('s.city', 'is', null), eb('s.city', '<>', sql.lit(RESTRICTED))]));
};

/** Its rule: a certified site is of grade A (refused naming `grade`, inside the write's transaction). */
const sitesResource: ServedResource = {
  config: sitesConfig,
  listing: siteListing,
  list: (ctx, viewer, body) => renderList(viewerSource(ctx.db, viewer, visibleSites), siteListing(), body),
  writes: {
    table: 'sites',
    rules: async (_db, { after }) => {
      if (after?.certified === true && after.grade !== 'A') throw badInput('validation.invalid', { field: 'grade' });
    },
  },
};

/** Its policy line: everyone reads, administrators above the lowest create and edit, the super administrator deletes. */
const everyone: RoleList = ['admin', 'user', 'lowUser', 'client'];
const SITES_RULES = { list: everyone, show: everyone, export: everyone, create: ['admin', 'user'], edit: ['admin', 'user'], delete: ['admin'] } satisfies (typeof POLICY)[string];

const ROLES: readonly DemoName[] = ['admin', 'first', 'second', 'client'];
const ROLE_OF = { admin: 'admin', first: 'user', second: 'lowUser', client: 'client' } as const;
const URL = `${REST_PREFIX}/chamber-sites`;

describe.each(STORE_KINDS)('a resource added by configuration, with its writes derived (%s)', (kind) => {
  const store = useStore(kind);
  const db = () => store.database.db as unknown as Kysely<WithSites>;
  let app: FastifyInstance;
  let tokens: Record<DemoName, string>;

  beforeAll(async () => {
    POLICY.sites = SITES_RULES;
    const table = db().schema.createTable('sites');
    await (kind === 'sqlite'
      ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
      : table.addColumn('id', 'integer', (col) => col.primaryKey().generatedByDefaultAsIdentity())
    )
      .addColumn('name', 'varchar(40)', (col) => col.notNull())
      .addColumn('city', 'varchar(40)')
      .addColumn('chambers', 'integer', (col) => col.notNull())
      .addColumn('grade', 'varchar(1)')
      .addColumn('certified', 'integer', (col) => col.notNull().defaultTo(0))
      .execute();
  });
  afterAll(() => {
    delete POLICY.sites;
  });

  beforeEach(async () => {
    await store.wipe();
    await db().deleteFrom('sites').execute();
    await seedFleet(store.context());
    await db()
      .insertInto('sites')
      .values([
        { name: 'Harbour', city: 'Ningbo', chambers: 4, grade: 'A', certified: 1 },
        { name: 'Annex', city: RESTRICTED, chambers: 2, grade: 'B', certified: 0 },
      ])
      .execute();
    app = await store.app({
      setup: (root) =>
        void root.register(
          async (rest) => {
            rest.setErrorHandler(restErrorHandler);
            registerRestList(rest, sitesResource);
            registerRestWrites(rest, sitesResource);
          },
          { prefix: REST_PREFIX },
        ),
    });
    tokens = await demoTokens(app);
  });

  const call = (role: DemoName, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, language = 'en-US') =>
    app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${tokens[role]}`, 'accept-language': language, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const idOf = async (name: string) => Number((await db().selectFrom('sites').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id);
  const rows = () => db().selectFrom('sites').selectAll().orderBy('id').execute();
  const audited = () =>
    store.database.db.selectFrom('audit_log').select(['actor_account', 'action', 'target_type', 'target_id', 'device_id', 'before', 'after']).where('target_type', '=', 'sites').orderBy('id').execute();
  const json = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

  it('creates, edits and deletes, each answering the record the list reads and audited in its name, with before and after', async () => {
    const created = await call('first', 'POST', URL, { name: '  Quay ', city: 'Xiamen', chambers: 6, grade: 'A', certified: true });
    expect(created.statusCode, created.body).toBe(201);
    const id = await idOf('Quay');
    const record = { id, name: 'Quay', city: 'Xiamen', chambers: 6, grade: 'A', certified: true };
    expect(created.json()).toEqual(record);
    expect((await call('client', 'GET', `${URL}/${id}`)).json()).toEqual(record);

    const edited = await call('admin', 'PUT', `${URL}/${id}`, { id, name: 'Quay', city: null, chambers: 7, grade: 'B', certified: false });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toEqual({ id, name: 'Quay', city: null, chambers: 7, grade: 'B', certified: false });

    const removed = await call('admin', 'DELETE', `${URL}/${id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual(edited.json());
    expect((await call('admin', 'GET', `${URL}/${id}`)).statusCode).toBe(404);

    const entries = await audited();
    expect(entries.map(({ before, after, ...entry }) => ({ ...entry, before: json(before), after: json(after) }))).toEqual([
      { actor_account: 'first', action: 'sites.create', target_type: 'sites', target_id: String(id), device_id: null, before: null, after: { name: 'Quay', city: 'Xiamen', chambers: 6, grade: 'A', certified: true } },
      {
        actor_account: 'admin',
        action: 'sites.edit',
        target_type: 'sites',
        target_id: String(id),
        device_id: null,
        before: { name: 'Quay', city: 'Xiamen', chambers: 6, grade: 'A', certified: true },
        after: { name: 'Quay', city: null, chambers: 7, grade: 'B', certified: false },
      },
      { actor_account: 'admin', action: 'sites.delete', target_type: 'sites', target_id: String(id), device_id: null, before: { name: 'Quay', city: null, chambers: 7, grade: 'B', certified: false }, after: null },
    ]);
  });

  it('gives each role exactly the writes the policy grants it, refusing the others with 403 before reading the body, writing nothing', async () => {
    const harbour = await idOf('Harbour');
    for (const role of ROLES) {
      const allowed = (action: string) => canAccess(ROLE_OF[role], { resource: 'sites', action });
      const before = JSON.stringify(await rows());
      const create = await call(role, 'POST', URL, { name: `By ${role}`, chambers: 1 });
      expect(create.statusCode, `${role} create: ${create.body}`).toBe(allowed('create') ? 201 : 403);
      const edit = await call(role, 'PUT', `${URL}/${harbour}`, { id: harbour, name: 'Harbour', chambers: 5 });
      expect(edit.statusCode, `${role} edit: ${edit.body}`).toBe(allowed('edit') ? 200 : 403);
      // A refused role is refused whatever the body: the policy is asked first.
      const badEdit = await call(role, 'PUT', `${URL}/${harbour}`, { nonsense: true });
      expect(badEdit.statusCode, `${role} bad edit`).toBe(allowed('edit') ? 400 : 403);
      if (!allowed('create') && !allowed('edit')) expect(JSON.stringify(await rows()), role).toBe(before);
    }
    expect(ROLES.filter((role) => canAccess(ROLE_OF[role], { resource: 'sites', action: 'create' }))).toEqual(['admin', 'first']);
    for (const role of ['first', 'second', 'client'] as const) {
      expect((await call(role, 'DELETE', `${URL}/${harbour}`)).statusCode, role).toBe(403);
    }
    expect((await call('admin', 'DELETE', `${URL}/${harbour}`)).statusCode).toBe(200);
    const unsigned = await app.inject({ method: 'POST', url: URL, headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'Anon', chambers: 1 }) });
    expect(unsigned.statusCode).toBe(401);
    expect((await audited()).map((entry) => `${entry.actor_account} ${entry.action}`)).toEqual([
      'admin sites.create',
      'admin sites.edit',
      'first sites.create',
      'first sites.edit',
      'admin sites.delete',
    ]);
  });

  it('refuses bad input naming the field, in the caller’s language, and writes nothing', async () => {
    const harbour = await idOf('Harbour');
    const before = await rows();
    const refused = async (method: 'POST' | 'PUT', url: string, body: unknown, language?: string) => {
      const response = await call('admin', method, url, body, language);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ code: number }>().code).toBe(40000);
      return response.json<{ message: string }>().message;
    };
    expect(await refused('POST', URL, { name: 'Big', chambers: 501 })).toBe('chambers must be at most 500');
    expect(await refused('POST', URL, { name: 'Big', chambers: 501 }, 'zh-CN')).toBe('chambers 不能大于 500');
    expect(await refused('POST', URL, { chambers: 1 })).toContain('name');
    expect(await refused('POST', URL, { name: 'x'.repeat(41), chambers: 1 }, 'zh-CN')).toBe('name 最多 40 个字符');
    expect(await refused('POST', URL, { name: 'Odd', chambers: 1, grade: 'Z' })).toContain('grade');
    // A field the form does not show is refused, not ignored: the id is the server's to give.
    expect(await refused('POST', URL, { id: 99, name: 'Mine', chambers: 1 })).toContain('id');
    expect(await refused('PUT', `${URL}/${harbour}`, { id: harbour, name: 'Harbour', chambers: 1.5 })).toContain('chambers');
    // simple-rest names the record in the path and the body: they must agree.
    expect(await refused('PUT', `${URL}/${harbour}`, { id: harbour + 1, name: 'Elsewhere', chambers: 1 })).toContain('id');
    expect((await call('admin', 'PUT', `${URL}/0`, { name: 'Zero', chambers: 1 })).statusCode).toBe(400);
    expect(await rows()).toEqual(before);
    expect(await audited()).toEqual([]);
  });

  it("refuses what the resource's rule refuses inside the transaction: no row, no entry, nothing half-written", async () => {
    const harbour = await idOf('Harbour');
    const before = await rows();
    const create = await call('admin', 'POST', URL, { name: 'Proud', chambers: 3, grade: 'C', certified: true }, 'zh-CN');
    expect(create.statusCode).toBe(400);
    expect(create.json()).toEqual({ code: 40000, message: 'grade 无效' });
    const edit = await call('admin', 'PUT', `${URL}/${harbour}`, { id: harbour, name: 'Harbour', chambers: 4, grade: 'B' });
    expect(edit.json()).toEqual({ code: 40000, message: 'grade is invalid' });
    expect(await rows()).toEqual(before);
    expect(await audited()).toEqual([]);
    // The same write within the rule goes through.
    expect((await call('admin', 'PUT', `${URL}/${harbour}`, { id: harbour, name: 'Harbour', chambers: 4, certified: false, grade: 'B' })).statusCode).toBe(200);
  });

  it('is scoped like its list: a site out of sight, or a write that would take one there, is answered as missing and writes nothing', async () => {
    const annex = await idOf('Annex');
    const harbour = await idOf('Harbour');
    const before = await rows();
    const missing = (await call('first', 'PUT', `${URL}/999999`, { name: 'Ghost', chambers: 1 })).json();
    const hidden = await call('first', 'PUT', `${URL}/${annex}`, { id: annex, name: 'Annex', chambers: 9 });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual(missing);
    const moved = await call('first', 'PUT', `${URL}/${harbour}`, { id: harbour, name: 'Harbour', city: RESTRICTED, chambers: 4 });
    expect(moved.statusCode).toBe(404);
    const createdThere = await call('first', 'POST', URL, { name: 'Hidden', city: RESTRICTED, chambers: 1 });
    expect(createdThere.statusCode).toBe(404);
    expect((await call('admin', 'DELETE', `${URL}/999999`)).statusCode).toBe(404);
    expect(await rows()).toEqual(before);
    expect(await audited()).toEqual([]);
    // The super administrator sees the restricted site, and edits it.
    expect((await call('admin', 'PUT', `${URL}/${annex}`, { id: annex, name: 'Annex', city: RESTRICTED, chambers: 9 })).json()).toMatchObject({ chambers: 9 });
  });
});
