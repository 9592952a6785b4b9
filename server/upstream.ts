import type { FastifyInstance, FastifyPluginAsync, RouteOptions } from 'fastify';
import { ACCOUNT_COMMANDS, accountsConfig } from '../src/resources/accounts/config';
import { accountRoutes } from './accounts/routes';
import { authRoutes } from './auth/routes';
import { deviceRoutes } from './devices/routes';
import { upstreamNotFound } from './http/plugin';
import { upstreamPath } from './lists/route';
import { messageRoutes } from './messages/routes';
import { orderRoutes } from './orders/routes';
import { telemetryRoutes } from './telemetry/routes';

/**
 * Other names of calls, alias → call, both relative to API_PREFIX. The spec names createUser,
 * resetUserPwd, getUserInfo and updateUserPwd without details (point 7); they are the same calls as
 * add_Admin, Admin_reset_Code, /api/user/info and self_reset_Code: same schema, guards and handler.
 */
export const UPSTREAM_ALIASES: Readonly<Record<string, string>> = {
  '/createUser': upstreamPath(accountsConfig, 'create'),
  '/resetUserPwd': ACCOUNT_COMMANDS.resetPassword,
  '/getUserInfo': '/api/user/info',
  '/updateUserPwd': ACCOUNT_COMMANDS.changeOwnPassword,
};

interface AliasConfig {
  aliasOf?: string;
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
    if ((route.config as AliasConfig | undefined)?.aliasOf !== undefined) return;
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
 * The upstream contract, registered under API_PREFIX: one route plugin per concern (sign-in, accounts,
 * devices, orders, state records, the message box), plus the aliases above. Unknown paths under the
 * prefix answer 40400.
 */
export const upstreamPlugin: FastifyPluginAsync = async (app) => {
  app.setNotFoundHandler(upstreamNotFound);
  const checkAliases = aliasRoutes(app, UPSTREAM_ALIASES);
  await app.register(authRoutes);
  await app.register(accountRoutes);
  await app.register(deviceRoutes);
  await app.register(orderRoutes);
  await app.register(telemetryRoutes);
  await app.register(messageRoutes);
  checkAliases();
};
