import type { Kysely } from 'kysely';
import type { Level, Role } from '../src/domain/roles';
import type { PasswordHasher } from './auth/passwords';
import type { Config } from './config';
import type { DatabaseKind } from './db/database';
import type { DB } from './db/schema';
import type { LiveFeed } from './live/feed';
import type { DeviceLink } from './mqtt/link';

/**
 * What the services need, passed explicitly so they are testable without HTTP. The app decorates
 * itself with one: `app.ctx`.
 */
export interface AppContext {
  config: Config;
  db: Kysely<DB>;
  kind: DatabaseKind;
  /** The clock, epoch milliseconds; injectable so tests can move time. */
  now: () => number;
  passwords: PasswordHasher;
  /** Changes announced to live streams (server/live/feed.ts). */
  live: LiveFeed;
  /** The broker, for commands and disconnects; `unlinked` until the MQTT plugin connects (server/mqtt/link.ts). */
  link: DeviceLink;
}

/** The account a request is signed in as (set by the auth guards). */
export interface SignedInAccount {
  id: number;
  account: string;
  level: Level;
  role: Role;
  subId: number | null;
  /**
   * The password was reset by an administrator (or generated at first start): until the owner chooses
   * a new one, the guards refuse every call but the few that opt in (docs/server-accounts.md).
   */
  mustChangeCode: boolean;
  /** sha256 of the bearer token used, to revoke it on logout. */
  tokenHash: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    /** Null until a guard (requireSignIn, requireRole, requireAccess) has run. */
    account: SignedInAccount | null;
  }
}
