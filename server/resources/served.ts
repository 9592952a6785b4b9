import type { z } from 'zod';
import type { ListAnswer, ListBody } from '../../src/resources/query';
import type { ResourceConfig } from '../../src/resources/types';
import type { AppContext } from '../context';
import type { RenderedList } from '../lists/answer';
import type { Listing } from '../lists/listing';
import type { Viewer } from '../scope/service';

/**
 * A resource the server serves, declared once beside its concern (e.g. server/orders/list.ts) and
 * named in ./registry.ts. Which API lists it, and where, is its configuration's: `adapter: 'upstream'`
 * lists it at `POST {API_PREFIX}{endpoints.list}`, `adapter: 'rest'` at `GET /api/v1/{path}` and
 * `GET /api/v1/{path}/:id`. The guard asks the shared policy for `list` (and `show`) on `config.name`.
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
}
