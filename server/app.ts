import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createPasswordHasher } from './auth/passwords';
import { authPlugin } from './auth/plugin';
import { rateLimitPlugin } from './auth/rateLimit';
import type { Config } from './config';
import { consolePlugin } from './console/plugin';
import type { AppContext } from './context';
import { createDatabase } from './db/database';
import { databasePlugin } from './db/plugin';
import { healthPlugin } from './health';
import { noStorePlugin } from './http/noStore';
import { errorHandler, httpPlugin } from './http/plugin';
import { createLiveFeed } from './live/feed';
import { loggerOptions } from './logger';
import { unlinked } from './mqtt/link';
import { mqttPlugin, type MqttPluginOptions } from './mqtt/plugin';
import { commandSweeperPlugin } from './commands/sweeper';
import { retentionSweeperPlugin } from './history/retention';
import { orderSweeperPlugin } from './orders/sweeper';
import { REST_PREFIX, restPlugin } from './rest/plugin';
import { securityHeadersPlugin } from './security/headers';
import { upstreamPlugin } from './upstream';

export interface BuildAppOptions {
  config: Config;
  /** The clock, epoch milliseconds (default Date.now); tests move it to expire tokens. */
  now?: () => number;
  /**
   * true (default): pino at LOG_LEVEL with secrets redacted; false: no logging; or a logger to use
   * (its redaction is the caller's business).
   */
  logger?: boolean | FastifyBaseLogger;
  /**
   * The broker (embedded on MQTT_PORT, or MQTT_URL's), ingestion, the live relay and the device link
   * (server/mqtt/plugin.ts): true, or options for a cluster worker. Off by default: most tests need no broker.
   */
  mqtt?: true | MqttPluginOptions;
}

/**
 * A logger at level `silent` writes nothing, yet Fastify still derives a pino child logger from it for
 * every request (~20 µs of a list request's CPU, bench/README.md); without a logger it derives none.
 * Such a logger is therefore left out: what it would have dropped is dropped all the same.
 */
const writesNothing = (logger: true | FastifyBaseLogger, config: Config): boolean =>
  (logger === true ? config.logLevel : logger.level) === 'silent';

/**
 * Builds the server: database, request handling, auth, the upstream contract under API_PREFIX, the REST
 * API under /api/v1, the static console, /healthz. Does not migrate, bootstrap or listen (main.ts does; tests call
 * migrateToLatest themselves). Closing the app closes the database.
 */
export const buildApp = (options: BuildAppOptions): FastifyInstance => {
  const { config } = options;
  const logger = options.logger ?? true;
  const { trustProxy } = config;
  const common = {
    // A hop count trusts that many proxies in front of the server.
    trustProxy: typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
    bodyLimit: 1024 * 1024,
    // A malformed URL (`/upstream/%ZZ`) fails before routing: answer it like any bad input, in the envelope.
    // No hook runs for it, so it gets its security headers here.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      request.server.applySecurityHeaders(reply.raw);
      void errorHandler(error, request, reply);
    },
  };
  const app: FastifyInstance =
    logger === false || writesNothing(logger, config)
      ? Fastify({ ...common, logger: false })
      : logger === true
        ? Fastify({ ...common, logger: loggerOptions(config.logLevel) })
        : Fastify({ ...common, loggerInstance: logger });

  const database = createDatabase(config, {
    onPoolError: (error) => app.log.error({ err: error }, 'database connection error'),
  });
  const ctx: AppContext = {
    config,
    db: database.db,
    kind: database.kind,
    now: options.now ?? Date.now,
    passwords: createPasswordHasher(config.scryptCost),
    live: createLiveFeed(),
    link: unlinked,
  };
  app.decorate('ctx', ctx);

  // First: its hook gives every response, error and live stream included, the security headers.
  void app.register(securityHeadersPlugin, { behindTls: config.behindTls });
  void app.register(databasePlugin, { database });
  void app.register(orderSweeperPlugin);
  void app.register(commandSweeperPlugin, { timeoutSeconds: config.commandTimeoutSeconds });
  void app.register(retentionSweeperPlugin);
  void app.register(httpPlugin);
  void app.register(authPlugin);
  void app.register(noStorePlugin);
  // Before the routes: it limits the routes registered after it.
  void app.register(rateLimitPlugin);
  void app.register(healthPlugin);
  void app.register(upstreamPlugin, { prefix: config.apiPrefix });
  void app.register(restPlugin, { prefix: REST_PREFIX });
  void app.register(consolePlugin, { consoleDir: config.consoleDir, apiPrefix: config.apiPrefix });
  // Last, so it closes first (onClose runs in reverse): ingestion writes what it holds while the store is open.
  if (options.mqtt !== undefined) void app.register(mqttPlugin, options.mqtt === true ? {} : options.mqtt);
  return app;
};
