import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyPluginCallback } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { alarmsPlugin } from '../../server/alarms/plugin';
import { buildApp } from '../../server/app';
import { authPlugin } from '../../server/auth/plugin';
import { rateLimitPlugin } from '../../server/auth/rateLimit';
import { commandSweeperPlugin } from '../../server/commands/sweeper';
import { loadConfig } from '../../server/config';
import { consolePlugin } from '../../server/console/plugin';
import { contextPlugin } from '../../server/context';
import { databasePlugin } from '../../server/db/plugin';
import { healthPlugin } from '../../server/health';
import { noStorePlugin } from '../../server/http/noStore';
import { retentionSweeperPlugin } from '../../server/history/retention';
import { httpPlugin } from '../../server/http/plugin';
import { liveFeedPlugin } from '../../server/live/feed';
import { livePlugin } from '../../server/live/plugin';
import { deviceLinkPlugin } from '../../server/mqtt/link';
import { mqttPlugin } from '../../server/mqtt/plugin';
import { orderSweeperPlugin } from '../../server/orders/sweeper';
import { restPlugin } from '../../server/rest/plugin';
import { securityHeadersPlugin } from '../../server/security/headers';
import { ingestPlugin } from '../../server/telemetry/plugin';
import { upstreamPlugin } from '../../server/upstream';
import { STORE_KINDS, TEST_ENV, useStore } from './stores';

interface PluginMeta {
  name?: string;
  dependencies?: string[];
  decorators?: { fastify?: string[]; reply?: string[] };
}

/** What fastify-plugin attaches to a plugin: its name and the plugins it needs. */
const metaOf = (plugin: unknown): PluginMeta => ((plugin as Record<symbol, PluginMeta | undefined>)[Symbol.for('plugin-meta')] ?? {});

/**
 * Fastify's refusal of a plugin registered without what it needs: a decorator it declares reading is
 * checked first, then the plugins it depends on. Either names the plugin and what is missing.
 */
const refusalOf = ({ name = 'unnamed', dependencies = [], decorators = {} }: PluginMeta): string => {
  const [decorator] = decorators.fastify ?? [];
  if (decorator !== undefined) return `The decorator '${decorator}' required by '${name}' is not present in Fastify`;
  const [onReply] = decorators.reply ?? [];
  if (onReply !== undefined) return `The decorator '${onReply}' required by '${name}' is not present in Reply`;
  return `The dependency '${String(dependencies[0])}' of plugin '${name}' is not registered`;
};

/** Every plugin of the app that needs another, with options it could start with. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- plugins of different option types, registered alike
const DEPENDENT: readonly (readonly [FastifyPluginAsync<any> | FastifyPluginCallback<any>, object])[] = [
  [contextPlugin, { config: {} }],
  [authPlugin, {}],
  [noStorePlugin, {}],
  [rateLimitPlugin, {}],
  [orderSweeperPlugin, {}],
  [commandSweeperPlugin, {}],
  [retentionSweeperPlugin, {}],
  [mqttPlugin, {}],
  [alarmsPlugin, {}],
  [ingestPlugin, {}],
  [healthPlugin, {}],
  [upstreamPlugin, {}],
  [restPlugin, {}],
  [livePlugin, {}],
  [consolePlugin, { consoleDir: '/nowhere', apiPrefix: '/upstream' }],
];

describe('server plugins', () => {
  const apps: FastifyInstance[] = [];
  const bare = (): FastifyInstance => {
    const app = Fastify({ logger: false });
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close().catch(() => undefined)));
  });

  it.each(DEPENDENT.map(([plugin, options]) => [metaOf(plugin).name ?? 'unnamed', plugin, options] as const))(
    '%s, registered without the plugins it depends on, stops the start naming itself and what is missing',
    async (name, plugin, options) => {
      const meta = metaOf(plugin);
      expect(meta.dependencies?.[0], `${name} declares its dependencies`).toMatch(/^oxygen-/);
      const app = bare();
      void app.register(plugin, options);
      await expect(app.ready()).rejects.toThrow(refusalOf(meta));
    },
  );

  it('registered in the wrong order (the context before the database), stops the start naming the context and the store', async () => {
    const app = bare();
    void app.register(liveFeedPlugin);
    void app.register(deviceLinkPlugin);
    void app.register(contextPlugin, { config: {} as never });
    void app.register(databasePlugin, { config: { database: { kind: 'sqlite', file: ':memory:' }, sqliteSynchronous: 'NORMAL' } });
    await expect(app.ready()).rejects.toThrow("The decorator 'database' required by 'oxygen-context' is not present in Fastify");
  });

  it('ingestion registered before the broker transport stops the start naming the transport', async () => {
    const app = bare();
    const config = { ...loadConfig(TEST_ENV), database: { kind: 'sqlite', file: ':memory:' } } as const;
    void app.register(securityHeadersPlugin, { behindTls: false });
    void app.register(databasePlugin, { config });
    void app.register(liveFeedPlugin);
    void app.register(deviceLinkPlugin);
    void app.register(contextPlugin, { config });
    void app.register(httpPlugin);
    void app.register(ingestPlugin);
    void app.register(mqttPlugin);
    await expect(app.ready()).rejects.toThrow("The decorator 'mqtt' required by 'oxygen-ingest' is not present in Fastify");
  });
});

/** The names of the plugins registered on the app itself, in order, from Fastify's plugin tree (avvio's own `after` steps left out). */
const topLevelPlugins = (app: FastifyInstance): string[] =>
  app
    .printPlugins()
    .split('\n')
    .filter((line) => /^[├└]─[─┬] /.test(line))
    .map((line) => line.slice(4).replace(/ \d+ ms$/, ''))
    .filter((name) => name !== 'bound _after');

describe.each(STORE_KINDS)("the app's plugins (%s)", (kind) => {
  const store = useStore(kind);
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  it('all declare a name, the plugins in dependency order and the routes after them', async () => {
    expect(store.database.kind).toBe(kind);
    const app = buildApp({ config: store.config(), logger: false });
    apps.push(app);
    await app.ready();
    expect(topLevelPlugins(app)).toEqual([
      'oxygen-security-headers',
      'oxygen-database',
      'oxygen-live-feed',
      'oxygen-device-link',
      'oxygen-context',
      'oxygen-http',
      'oxygen-auth',
      'oxygen-no-store',
      'oxygen-rate-limit',
      'oxygen-order-sweeper',
      'oxygen-command-sweeper',
      'oxygen-retention-sweeper',
      'oxygen-notifications',
      'oxygen-health',
      'oxygen-upstream',
      'oxygen-rest',
      'oxygen-console',
    ]);
    // The services' context is made of what the plugins decorate: one link, one feed, one store.
    expect(app.ctx.link).toBe(app.link);
    expect(app.ctx.live).toBe(app.liveFeed);
    expect(app.ctx.db).toBe(app.database.db);
  });

  it('with a broker, the transport, the alarm engine and ingestion join them, each named', async () => {
    const app = buildApp({ config: store.config({ MQTT_PORT: '0', MQTT_HOST: '127.0.0.1' }), logger: false, mqtt: { ingest: { sweepIntervalMs: 0 } } });
    apps.push(app);
    await app.ready();
    const names = topLevelPlugins(app);
    expect(names.slice(names.indexOf('oxygen-notifications') + 1, names.indexOf('oxygen-health'))).toEqual(['oxygen-mqtt', 'oxygen-alarms', 'oxygen-ingest']);
    expect(names.every((name) => name.startsWith('oxygen-'))).toBe(true);
    // The link the services hold from the start is the one the broker connected.
    await app.ctx.link.sendCommand('OC-X', { cmdId: 'c-plugins', type: 'state', Time: Date.now(), State: 'Stop' });
  });
});
