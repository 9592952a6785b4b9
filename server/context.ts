import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Level, Role } from '../src/domain/roles';
import { createPasswordHasher, type PasswordHasher } from './auth/passwords';
import type { Config } from './config';
import type { DatabaseKind } from './db/database';
import type { DB } from './db/schema';
import type { LiveFeed } from './live/feed';
import type { DeviceLink } from './mqtt/link';

/**
 * What the services need, passed explicitly so they are testable without HTTP. The app decorates
 * itself with one, `app.ctx`, made of what the database, live feed and device link plugins decorate.
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
  /** The broker, for commands and disconnects: the app's one link, unlinked until the MQTT plugin connects it (server/mqtt/link.ts). */
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

export interface ContextPluginOptions {
  config: Config;
  /** The clock (default Date.now). */
  now?: () => number;
}

/** Decorates `ctx`, the services' context, from the plugins it depends on and the configuration. */
export const contextPlugin = fp<ContextPluginOptions>(
  async (app, { config, now }) => {
    app.decorate('ctx', {
      config,
      db: app.database.db,
      kind: app.database.kind,
      now: now ?? Date.now,
      passwords: createPasswordHasher(config.scryptCost),
      live: app.liveFeed,
      link: app.link,
    } satisfies AppContext);
  },
  {
    name: 'oxygen-context',
    fastify: '5.x',
    dependencies: ['oxygen-database', 'oxygen-live-feed', 'oxygen-device-link'],
    decorators: { fastify: ['database', 'liveFeed', 'link'] },
  },
);
