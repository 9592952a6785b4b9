import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { alarmsPlugin } from './alarms/plugin';
import { authPlugin } from './auth/plugin';
import { rateLimitPlugin } from './auth/rateLimit';
import { commandSweeperPlugin } from './commands/sweeper';
import type { Config } from './config';
import { consolePlugin } from './console/plugin';
import { contextPlugin } from './context';
import { databasePlugin } from './db/plugin';
import { healthPlugin } from './health';
import { noStorePlugin } from './http/noStore';
import { notificationsPlugin, type NotificationsPluginOptions } from './notifications/worker';
import { retentionSweeperPlugin } from './history/retention';
import { errorHandler, httpPlugin } from './http/plugin';
import { liveFeedPlugin } from './live/feed';
import { loggerOptions } from './logger';
import { deviceLinkPlugin } from './mqtt/link';
import { mqttPlugin, type MqttPluginOptions } from './mqtt/plugin';
import { orderSweeperPlugin } from './orders/sweeper';
import { REST_PREFIX, restPlugin } from './rest/plugin';
import { securityHeadersPlugin } from './security/headers';
import { alarmSweepIntervalOf } from './telemetry/ingest';
import { ingestPlugin, type IngestPluginOptions } from './telemetry/plugin';
import { upstreamPlugin } from './upstream';

/** The broker transport's options, and ingestion's (which runs beside it unless `primary` is set). */
export interface MqttOptions extends MqttPluginOptions {
  /** Ingestion's batch and timer settings (tests); default its own. */
  ingest?: IngestPluginOptions;
}

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
   * The broker (embedded on MQTT_PORT, or MQTT_URL's) with the live relay and the device link
   * (server/mqtt/plugin.ts), the alarm engine and ingestion: true, or options (a cluster worker's, tests').
   * Off by default: most tests need no broker.
   */
  mqtt?: true | MqttOptions;
  /** The notification delivery worker's options (tests: `intervalMs: 0`, rounds run by hand); false: none (a cluster worker). */
  notifications?: NotificationsPluginOptions | false;
}

/**
 * A logger at level `silent` writes nothing, yet Fastify still derives a pino child logger from it for
 * every request (~20 µs of a list request's CPU, docs/performance.md); without a logger it derives none.
 * Such a logger is therefore left out: what it would have dropped is dropped all the same.
 */
const writesNothing = (logger: true | FastifyBaseLogger, config: Config): boolean =>
  (logger === true ? config.logLevel : logger.level) === 'silent';

/**
 * The broker transport, then (unless this is a cluster worker beside the primary's broker, which takes no
 * device messages) the alarm engine and ingestion. Ingestion depends on the transport, the alarms and the
 * database, so it closes before them: it writes what it holds while they are open.
 */
const registerMqtt = (app: FastifyInstance, { ingest = {}, ...broker }: MqttOptions): void => {
  void app.register(mqttPlugin, broker);
  if (broker.primary !== undefined) return;
  void app.register(alarmsPlugin, { intervalMs: alarmSweepIntervalOf(ingest), logBurst: ingest.logBurst, logWindowMs: ingest.logWindowMs });
  void app.register(ingestPlugin, ingest);
};

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

  // Plugins, each declaring the plugins it needs (a wrong order or a missing one stops the start naming
  // it; docs/architecture.md, "Plugins"), then routes.
  // First: its hook gives every response, error and live stream included, the security headers.
  void app.register(securityHeadersPlugin, { behindTls: config.behindTls });
  void app.register(databasePlugin, { config });
  void app.register(liveFeedPlugin);
  void app.register(deviceLinkPlugin);
  void app.register(contextPlugin, { config, now: options.now });
  void app.register(httpPlugin);
  void app.register(authPlugin);
  void app.register(noStorePlugin);
  // Before the routes: it limits every request, ahead of any route's own hooks.
  void app.register(rateLimitPlugin);
  void app.register(orderSweeperPlugin);
  void app.register(commandSweeperPlugin, { timeoutSeconds: config.commandTimeoutSeconds });
  void app.register(retentionSweeperPlugin);
  if (options.notifications !== false) void app.register(notificationsPlugin, options.notifications ?? {});
  if (options.mqtt !== undefined) registerMqtt(app, options.mqtt === true ? {} : options.mqtt);

  void app.register(healthPlugin);
  void app.register(upstreamPlugin, { prefix: config.apiPrefix });
  void app.register(restPlugin, { prefix: REST_PREFIX });
  void app.register(consolePlugin, { consoleDir: config.consoleDir, apiPrefix: config.apiPrefix });
  return app;
};
