import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { WRITE_VERBS, writeAudit, type WriteVerb } from '../../src/domain/audit';
import { POLICY } from '../../src/domain/policy';
import { idFields, sourcesIn, type RecordId, type WireRecord } from '../../src/resources/model';
import { writeSchema } from '../../src/resources/schema';
import type { FormView } from '../../src/resources/types';
import { actorOf } from '../audit/actor';
import { recordAudit, type AuditActor } from '../audit/trail';
import { requireAccess, signedIn } from '../auth/guard';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import { badInput, notFound } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import type { ColumnType, Listing } from '../lists/listing';
import type { ServedResource, ServedWrites } from '../resources/served';
import type { Viewer } from '../scope/service';
import { recordsOf, restPath, servedRecordParams } from './list';

/**
 * The derived writes of a REST resource (docs/adding-a-resource.md, step 5), from its configuration, its
 * listing and its entry's `writes`, in ra-data-simple-rest's shape:
 *   POST   /<path>      the create form's fields  → 201 and the record
 *   PUT    /<path>/:id  the edit form's fields    → the record
 *   DELETE /<path>/:id                            → the record as it was
 * Each exists when the shared policy grants its action (create, edit, delete) to some role, and is guarded by
 * it (else 403/40300, before the body is read). The body is the shared writeSchema's (else 400/40000 naming
 * the field, in the caller's language). Scoped like the list: a record the viewer's list does not answer is
 * 404, before and after the write (a write may not take a record out of the writer's sight, nor create one
 * there). The row, the resource's rules and the audit entry (src/domain/audit.ts, writeAudit) are written in
 * one transaction: a refusal anywhere leaves nothing written.
 */

type AnyTables = Record<string, Record<string, unknown>>;

/** The store without its table types: the table and columns are the entry's and the listing's, checked at start. */
const untyped = (db: Kysely<DB>): Kysely<AnyTables> => db as unknown as Kysely<AnyTables>;

interface WrittenColumn {
  source: string;
  name: string;
  type: ColumnType;
}

/** The listing's column of each field a form writes; a field without one stops the server at start, named. */
const columnsOf = (listing: Listing, sources: readonly string[]): WrittenColumn[] =>
  sources.map((source) => {
    const column = Object.hasOwn(listing.columns, source) ? listing.columns[source] : undefined;
    if (column === undefined) throw new Error(`The server cannot write ${listing.config.name}.${source}: its listing has no column for it`);
    return { source, name: column.ref.slice(column.ref.indexOf('.') + 1), type: column.type };
  });

/** A wire value as its column holds it: a boolean as its 0/1 flag, a reading as JSON text. */
const stored = (type: ColumnType, value: unknown): unknown => {
  if (value === null) return null;
  if (type === 'flag') return value === true ? 1 : 0;
  return type === 'json' ? JSON.stringify(value) : value;
};

/** The row values of the body's fields that it sends (a missing one keeps its column's default or value). */
const rowOf = (columns: readonly WrittenColumn[], body: WireRecord): Record<string, unknown> =>
  Object.fromEntries(columns.filter(({ source }) => body[source] !== undefined).map(({ source, name, type }) => [name, stored(type, body[source])]));

const pick = (record: WireRecord, sources: readonly string[]): WireRecord => Object.fromEntries(sources.map((source) => [source, record[source]]));

interface Written {
  ctx: AppContext;
  viewer: Viewer;
  actor: AuditActor;
}

export const registerRestWrites = (instance: FastifyInstance, resource: ServedResource): void => {
  const { config, list, writes } = resource;
  if (writes === undefined) return;
  const verbs = WRITE_VERBS.filter((verb) => POLICY[config.name]?.[verb] !== undefined);
  const path = restPath(config);
  const listing = resource.listing();
  const { table, stamp, rules } = writes satisfies ServedWrites;
  const [stamped] = stamp === undefined ? [] : columnsOf(listing, [stamp]);
  const ids = idFields(config);
  /** What a form writes: its fields but the id and the stamp, which the server sets. */
  const formFields = (view: FormView) => sourcesIn(config, view).filter((source) => !ids.includes(source) && source !== stamp);
  const columns = { create: columnsOf(listing, formFields('create')), edit: columnsOf(listing, formFields('edit')) };
  const rowFor = (view: FormView, body: WireRecord, at: number) => ({ ...rowOf(columns[view], body), ...(stamped === undefined ? {} : { [stamped.name]: at }) });
  const audited = (verb: WriteVerb) => writeAudit(config.name, verb);
  const recordIdOf = (value: unknown): RecordId => (resource.recordId === undefined ? Number(value) : (value as RecordId));

  /** The record as the viewer's list answers it, read in the transaction `db`. */
  const visible = async (ctx: AppContext, db: Kysely<DB>, viewer: Viewer, id: RecordId): Promise<WireRecord> => {
    const [record] = recordsOf(await list({ ...ctx, db }, viewer, { current: 1, pageSize: 1, filter: { id: [id] } })).list;
    if (record === undefined) throw notFound();
    return record;
  };

  const create = ({ ctx, viewer, actor }: Written, body: WireRecord) =>
    ctx.db.transaction().execute(async (trx) => {
      const at = ctx.now();
      const row = rowFor('create', body, at);
      const insert = untyped(trx).insertInto(table);
      const inserted = await (Object.keys(row).length === 0 ? insert.defaultValues() : insert.values(row)).returning('id').executeTakeFirstOrThrow();
      const id = recordIdOf(inserted.id);
      const after = await visible(ctx, trx, viewer, id);
      await rules?.(trx, { verb: 'create', id, after });
      await recordAudit(trx, actor, { ...audited('create'), targetId: id, after: pick(after, formFields('create')) }, at);
      return after;
    });

  const edit = ({ ctx, viewer, actor }: Written, id: RecordId, body: WireRecord) =>
    ctx.db.transaction().execute(async (trx) => {
      const at = ctx.now();
      const before = await visible(ctx, trx, viewer, id);
      const row = rowFor('edit', body, at);
      if (Object.keys(row).length > 0) await untyped(trx).updateTable(table).set(row).where('id', '=', id).execute();
      const after = await visible(ctx, trx, viewer, id);
      await rules?.(trx, { verb: 'edit', id, before, after });
      const fields = formFields('edit');
      await recordAudit(trx, actor, { ...audited('edit'), targetId: id, before: pick(before, fields), after: pick(after, fields) }, at);
      return after;
    });

  const remove = ({ ctx, viewer, actor }: Written, id: RecordId) =>
    ctx.db.transaction().execute(async (trx) => {
      const at = ctx.now();
      const before = await visible(ctx, trx, viewer, id);
      await untyped(trx).deleteFrom(table).where('id', '=', id).execute();
      await rules?.(trx, { verb: 'delete', id, before });
      await recordAudit(trx, actor, { ...audited('delete'), targetId: id, before: pick(before, Object.keys(before).filter((source) => !ids.includes(source))) }, at);
      return before;
    });

  const app = instance.withTypeProvider<ZodTypeProvider>();
  const params = servedRecordParams(resource);
  const guard = (action: WriteVerb) => requireAccess({ resource: config.name, action });
  const written = (request: Parameters<typeof actorOf>[0]): Written => ({ ctx: app.ctx, viewer: signedIn(request), actor: actorOf(request) });

  if (verbs.includes('create')) {
    app.post(path, { schema: { body: writeSchema(config, 'create') }, onRequest: guard('create') }, async (request, reply) =>
      reply.code(201).send(await create(written(request), request.body as WireRecord)),
    );
  }
  if (verbs.includes('edit')) {
    // simple-rest sends the record back as it read it: the stamp may come with it, and is ignored.
    const body = stamp === undefined ? writeSchema(config, 'edit') : writeSchema(config, 'edit').extend({ [stamp]: z.number().nullish() });
    app.put(`${path}/:id`, { schema: { params, body }, onRequest: guard('edit') }, async (request) => {
      const record = request.body as WireRecord;
      // simple-rest names the record twice, in the path and in the body: they must agree.
      if (ids.some((source) => record[source] !== undefined && record[source] !== request.params.id)) throw badInput('validation.invalid', { field: 'id' });
      return edit(written(request), request.params.id, record);
    });
  }
  if (verbs.includes('delete')) {
    app.delete(`${path}/:id`, { schema: { params }, onRequest: guard('delete') }, async (request) => remove(written(request), request.params.id));
  }
};
