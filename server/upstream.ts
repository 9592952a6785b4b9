import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { UPSTREAM_ALIASES } from '../src/resources/accounts/calls';
import { accountRoutes } from './accounts/routes';
import { authRoutes } from './auth/routes';
import { channelFormRoutes } from './channel-forms/routes';
import { deviceRoutes } from './devices/routes';
import { upstreamNotFound } from './http/plugin';
import { registerListRoute } from './lists/route';
import { messageRoutes } from './messages/routes';
import { profileRoutes } from './setting-requests/profile';
import { servedBy } from './resources/registry';
import { userCenterRoutes } from './user-center/routes';
import { userSettingRoutes } from './userSettings/routes';
import { oldAnalysisRoutes } from './stats/oldCalls';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on an alias's copy of its call. */
    aliasOf?: string;
  }
}

/**
 * Registers every alias of `aliases` as a copy of its call (the route's own options: schema, hooks,
 * handler) in the call's plugin, as the call is registered. Answers a check to run once every route
 * plugin is registered: it throws naming an alias whose call never appeared, so a renamed call stops
 * the start instead of silently losing its alias.
 */
const aliasRoutes = (app: FastifyInstance, aliases: Readonly<Record<string, string>>): (() => void) => {
  const aliasesOf = new Map<string, string[]>();
  for (const [alias, target] of Object.entries(aliases)) {
    aliasesOf.set(`${app.prefix}${target}`, [...(aliasesOf.get(`${app.prefix}${target}`) ?? []), alias]);
  }
  const seen = new Set<string>();
  app.addHook('onRoute', function (route) {
    if (route.config?.aliasOf !== undefined) return;
    const names = aliasesOf.get(route.url);
    if (names === undefined) return;
    if (route.prefix !== app.prefix) throw new Error(`aliases of ${route.url}: the call must be registered without its own prefix`);
    seen.add(route.url);
    const { url: _url, path: _path, routePath: _routePath, prefix: _prefix, ...options } = route as RouteOptions & {
      path?: string;
      routePath?: string;
      prefix?: string;
    };
    for (const alias of names) this.route({ ...options, url: alias, config: { ...route.config, aliasOf: route.routePath } });
  });
  return () => {
    for (const [url, names] of aliasesOf) {
      if (!seen.has(url)) throw new Error(`the upstream aliases ${names.join(', ')} name ${url}, which is not a call`);
    }
  };
};

/**
 * The upstream contract, registered under API_PREFIX: one route plugin per concern with calls of its own
 * (sign-in, accounts, devices, the message box, the old console's user centre, the user settings, the
 * template forms, the basic profile's old calls), every list from the registry
 * (server/resources/registry.ts), plus the aliases of src/resources/accounts/calls.ts. Unknown paths under the prefix answer 40400.
 * Encapsulated: its not-found handler and alias hook stay under the prefix.
 */
export const upstreamPlugin = fp(
  async (app) => {
    app.setNotFoundHandler(upstreamNotFound);
    const checkAliases = aliasRoutes(app, UPSTREAM_ALIASES);
    await app.register(authRoutes);
    await app.register(accountRoutes);
    await app.register(deviceRoutes);
    for (const resource of servedBy('upstream')) registerListRoute(app, resource);
    await app.register(messageRoutes);
    await app.register(userCenterRoutes);
    await app.register(channelFormRoutes);
    await app.register(userSettingRoutes);
    await app.register(oldAnalysisRoutes);
    await app.register(profileRoutes);
    checkAliases();
  },
  { name: 'oxygen-upstream', fastify: '5.x', encapsulate: true, dependencies: ['oxygen-context', 'oxygen-http', 'oxygen-auth'] },
);
