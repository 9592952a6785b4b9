import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { WriteVerb } from '../../src/domain/audit';
import type { RecordId, WireRecord } from '../../src/resources/model';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import type { ResourceConfig } from '../../src/resources/types';
import type { AppContext } from '../context';
import type { DB } from '../db/schema';
import type { RenderedList } from '../lists/answer';
import type { Listing } from '../lists/listing';
import type { Viewer } from '../scope/service';

/**
 * A resource the server serves, declared once beside its concern (e.g. server/orders/list.ts) and
 * named in ./registry.ts. Which API lists it, and where, is its configuration's: `adapter: 'upstream'`
 * lists it at `POST {API_PREFIX}{endpoints.list}`, `adapter: 'rest'` at `GET /api/v1/{path}` and
 * `GET /api/v1/{path}/:id`. The guard asks the shared policy for `list` (and `show`) on `config.name`.
 * A REST resource with `writes` is also created, edited and deleted there (server/rest/writes.ts).
 */
export interface ServedResource {
  config: ResourceConfig;
  /** Its wire fields ↔ columns (server/lists/listing.ts), checked against the configuration when its routes are registered. */
  listing: () => Listing;
  /**
   * A page of the records `viewer` sees: its scope is the rows this reads (server/lists/compiled.ts,
   * viewerSource). Rendered by the store (sent as it is), or records when the concern adds to them.
   */
  list: (ctx: AppContext, viewer: Viewer, body: ListBody) => Promise<ListAnswer | RenderedList>;
  /** REST only: how `/:id` names a record, when not by a whole number (a command's cmdId). */
  recordId?: z.ZodType<string | number>;
  /**
   * REST only: the derived writes (server/rest/writes.ts): `POST /api/v1/{path}`, `PUT /api/v1/{path}/:id` and
   * `DELETE /api/v1/{path}/:id`, one for each of create, edit and delete that the shared policy grants some
   * role on `config.name`, each writing the listing's columns of its form's fields with an audit entry.
   */
  writes?: ServedWrites;
}

/** A record as a derived write changes it: what the resource's rules are given. */
interface WrittenRecord {
  verb: WriteVerb;
  id: RecordId;
  /** The record before the write, as the list answers it (none for a create). */
  before?: WireRecord;
  /** What the write leaves: the record with the body's fields (none for a delete). */
  after?: WireRecord;
}

/** How the derived writes store a REST resource's records. */
export interface ServedWrites {
  /** The table the listing's columns (`alias.column`) name, its rows named by `id`. */
  table: string;
  /** A time field the server's clock sets on every create and edit; an edit may send it back, and it is ignored. */
  stamp?: string;
  /**
   * The resource's own rules, run in the write's transaction after the row is written and before its audit
   * entry (a rule reading other tables then sees the write, and a writer reading the row waits for it).
   * Throwing refuses the write (badInput: 400/40000 naming the field) and nothing stays written.
   */
  rules?: (db: Kysely<DB>, write: WrittenRecord) => Promise<void>;
}
