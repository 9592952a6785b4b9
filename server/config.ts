import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_SHELVE_MAX_MINUTES, type AlarmPriority } from '../src/domain/alarms/rules';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../src/domain/locales';
import { brokerAddressOf, type BrokerAddress } from '../src/domain/mqtt/connection';
import { isDeviceId, SERVER_SHARE_GROUP } from '../src/domain/mqtt/topics';
import { PASSWORD_MAX } from '../src/domain/auth';
import { DEFAULT_PASSWORD_MIN_LENGTH, passwordProblem } from '../src/domain/password';
import { isCommonPassword } from '../src/domain/commonPasswords';
import { DEMO_ADMIN } from '../src/domain/demo';

/**
 * The server's configuration, read from environment variables (README.md, "Configuration").
 * `loadConfig` is pure: it reads only the object it is given, so tests pass their own.
 */

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const SQLITE_SYNCHRONOUS_MODES = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_MODES)[number];

/** Demo accounts' passwords are shown in the README; in demo mode the super administrator gets this one. */
export const DEMO_ADMIN_PASSWORD = DEMO_ADMIN.password;

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** MQTT_PORT's default (README.md, "Configuration"); `--demo` uses the next port, since a development machine's own Mosquitto often holds 1883. */
export const DEFAULT_MQTT_PORT = 1883;
const DEMO_MQTT_PORT = 1884;
/** MQTT_TLS_PORT's default: MQTT over TLS's registered port. */
export const DEFAULT_MQTT_TLS_PORT = 8883;

/** How long a chamber has to acknowledge a command (docs/commands.md). */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 10;

/**
 * Where the devices' broker is: the embedded one this server runs (MQTT_PORT, MQTT_HOST), or an external
 * one it is a client of (MQTT_URL). `url` never carries credentials: they are in `username`/`password`.
 */
export type MqttTarget =
  | {
      kind: 'embedded';
      /** The plain listener's port (MQTT_PORT); with `plain` false only cluster workers use it, on 127.0.0.1. */
      port: number;
      host: string;
      /** MQTT_PLAIN: devices may connect without TLS. */
      plain: boolean;
      /** MQTT_TLS_CERT, MQTT_TLS_KEY (absolute paths) and MQTT_TLS_PORT: the TLS listener, when set. */
      tls: { port: number; certFile: string; keyFile: string } | null;
      limits: BrokerLimits;
    }
  | {
      kind: 'external';
      url: string;
      username: string | undefined;
      password: string | undefined;
      clientId: string;
      /** The shared subscription group that splits device messages between the server's instances. */
      shareGroup: string;
    };

/** The embedded broker's limits on its clients (docs/mqtt.md, "Limits"). */
export interface BrokerLimits {
  /** MQTT_CONNECTIONS_PER_DEVICE: connections one device may hold at once. */
  connectionsPerDevice: number;
  /** MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE: new connections one address may open per minute (in a burst, then evenly). */
  connectsPerAddressPerMinute: number;
  /** MQTT_LOGIN_FAILURES_PER_HOUR: refused sign-ins per address and username in the last hour before that pair is refused unchecked. */
  loginFailuresPerHour: number;
}

export interface Config {
  port: number;
  host: string;
  /** Absolute path. */
  dataDir: string;
  database: DatabaseTarget;
  /** Where the upstream contract is mounted, e.g. `/upstream` (leading slash, no trailing slash). */
  apiPrefix: string;
  adminAccount: string;
  /** Undefined: a random password is generated and printed once on first start. */
  adminPassword: string | undefined;
  /** Absolute path of the built console. */
  consoleDir: string;
  logLevel: LogLevel;
  sqliteSynchronous: SqliteSynchronous;
  tokenIdleMinutes: number;
  tokenMaxHours: number;
  /** log2 of scrypt's N. */
  scryptCost: number;
  /** Failed sign-ins of one account from all addresses but those it signed in from lately. */
  loginFailuresPerAccountPerHour: number;
  loginFailuresPerAddressPerHour: number;
  /** Failed sign-ins of one account from one address. */
  loginFailuresPerPairPerHour: number;
  /** The shortest password a person may choose (docs/server-auth.md, "Passwords"). */
  passwordMinLength: number;
  /** API calls a session may make per minute (more answer 42900). */
  apiRatePerMinute: number;
  /** API calls without a live session one address may make per minute. */
  apiRatePerAddressPerMinute: number;
  /** Live streams one session may hold open at once. */
  liveStreamsPerSession: number;
  /** Fastify's trustProxy: false, true, a hop count or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string;
  /** BEHIND_TLS: browsers reach the server over HTTPS (a TLS proxy in front), so HSTS is sent. */
  behindTls: boolean;
  /** A booking not used within this many minutes after its booking time (SetT) expires. */
  orderExpiryMinutes: number;
  /** A command a chamber has not acknowledged within this many seconds is reported as unanswered. */
  commandTimeoutSeconds: number;
  /** Raw readings (state records) older than this many days are deleted by the retention sweeper. */
  rawRetentionDays: number;
  /** Rollups (per minute and per hour) older than this many days are deleted by the retention sweeper. */
  rollupRetentionDays: number;
  /** How often ingestion recomputes the rollups of the buckets its stored readings touched, ms. */
  rollupFlushMs: number;
  /** The longest an operator may shelve an alarm for, minutes (docs/alarms.md, "Shelving"). */
  alarmShelveMaxMinutes: number;
  /** Processes answering HTTP on the one port (node:cluster); 1: the server process itself. */
  workers: number;
  mqtt: MqttTarget;
  /**
   * Where chambers reach the broker, when that is not what the server sees (a broker behind another name or a
   * TLS proxy): the connection example shown with a new secret (docs/server-devices.md). Unset: the external
   * broker's MQTT_URL, or the embedded broker's port on the host the console was reached by.
   */
  mqttPublicUrl: BrokerAddress | undefined;
  /** Alarms sent beyond the console (docs/notifications.md). */
  notifications: NotificationSettings;
}

interface NotificationSettings {
  /** The console's origin as people reach it, for the links in notifications (CONSOLE_PUBLIC_URL; default http://localhost:PORT). */
  publicUrl: string;
  /** The language notifications are written in. */
  locale: Locale;
  /** An unacknowledged alarm escalates after this many minutes, per priority (and again after as many); 0: never. */
  escalateMinutes: Record<AlarmPriority, number>;
  /** A notification not delivered within this many minutes is given up, its outcome failed. */
  giveUpMinutes: number;
  /** How long a receiver has to answer one attempt. */
  timeoutSeconds: number;
}

export type Env = Record<string, string | undefined>;

export interface LoadConfigOptions {
  /** `--demo`: ADMIN_PASSWORD defaults to the demo password instead of a random one, MQTT_PORT to DEMO_MQTT_PORT. */
  demo?: boolean;
  /** Relative paths (DATA_DIR, CONSOLE_DIR) are resolved against this; default process.cwd(). */
  cwd?: string;
  /** MQTT_CLIENT_ID's default is derived from it; default os.hostname(). */
  hostname?: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const optionalInteger = (name: string, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const parsed = /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max} (got "${value}")` });
        return z.NEVER;
      }
      return parsed;
    });

const integer = (name: string, fallback: number, min: number, max: number) =>
  optionalInteger(name, min, max).transform((value) => value ?? fallback);

const oneOf = <T extends string>(name: string, values: readonly T[], fallback: T, normalise: (v: string) => string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return fallback;
      const normalised = normalise(value.trim());
      const found = values.find((candidate) => candidate === normalised);
      if (found === undefined) {
        ctx.addIssue({ code: 'custom', message: `${name} must be one of ${values.join(', ')} (got "${value}")` });
        return z.NEVER;
      }
      return found;
    });

const text = (fallback: string) =>
  z
    .string()
    .optional()
    .transform((value) => value ?? fallback);

const FLAG_VALUES: Record<string, boolean> = { true: true, on: true, yes: true, '1': true, false: false, off: false, no: false, '0': false };

const flag = (name: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return false;
      const parsed = FLAG_VALUES[value.trim().toLowerCase()];
      if (parsed === undefined) {
        ctx.addIssue({ code: 'custom', message: `${name} must be true or false (got "${value}")` });
        return z.NEVER;
      }
      return parsed;
    });

const optionalText = z
  .string()
  .optional()
  .transform((value) => value?.trim());

const MQTT_URL_PROTOCOLS = ['mqtt:', 'mqtts:', 'ws:', 'wss:'];

/** The server's client id on an external broker: printable, and never a device Id (devices use theirs as client id). */
const CLIENT_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** `oxygen.server.<host name>`: stable across restarts of one machine, so its persistent session is found again. */
const defaultMqttClientId = (host: string): string =>
  `oxygen.server.${host.replace(/[^A-Za-z0-9_-]/g, '-')}`.slice(0, 64).replace(/[.-]+$/, '');

const envSchema = z.object({
  PORT: integer('PORT', 8080, 0, 65535),
  HOST: text('0.0.0.0'),
  DATA_DIR: text('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((value) => value === undefined || /^postgres(ql)?:\/\//.test(value), {
      message: 'DATABASE_URL must start with postgres:// or postgresql:// (unset it to use SQLite in DATA_DIR)',
    }),
  API_PREFIX: z
    .string()
    .optional()
    .transform((value) => value ?? '/upstream')
    .refine((value) => /^(\/[A-Za-z0-9._~-]+)+$/.test(value), {
      message: 'API_PREFIX must be a path such as /upstream: a leading slash, no trailing slash, no spaces',
    })
    .refine((value) => value !== '/api' && !value.startsWith('/api/') && value !== '/healthz', {
      message: 'API_PREFIX must not be /api or below it (the REST API lives there) nor /healthz',
    }),
  ADMIN_ACCOUNT: z
    .string()
    .optional()
    .transform((value) => (value ?? 'admin').trim())
    .refine((value) => value.length >= 1 && value.length <= 64, {
      message: 'ADMIN_ACCOUNT must be 1 to 64 characters',
    }),
  // Checked against the password rule in loadConfig, which knows PASSWORD_MIN_LENGTH.
  ADMIN_PASSWORD: z.string().optional(),
  CONSOLE_DIR: text('dist/console'),
  LOG_LEVEL: oneOf('LOG_LEVEL', LOG_LEVELS, 'info', (v) => v.toLowerCase()),
  SQLITE_SYNCHRONOUS: oneOf('SQLITE_SYNCHRONOUS', SQLITE_SYNCHRONOUS_MODES, 'NORMAL', (v) => v.toUpperCase()),
  TOKEN_IDLE_MINUTES: integer('TOKEN_IDLE_MINUTES', 30, 1, 7 * 24 * 60),
  TOKEN_MAX_HOURS: integer('TOKEN_MAX_HOURS', 12, 1, 24 * 365),
  SCRYPT_COST: integer('SCRYPT_COST', 17, 10, 20),
  LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: integer('LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR', 100, 1, 1_000_000),
  LOGIN_FAILURES_PER_ADDRESS_PER_HOUR: integer('LOGIN_FAILURES_PER_ADDRESS_PER_HOUR', 300, 1, 1_000_000),
  LOGIN_FAILURES_PER_PAIR_PER_HOUR: integer('LOGIN_FAILURES_PER_PAIR_PER_HOUR', 20, 1, 1_000_000),
  PASSWORD_MIN_LENGTH: integer('PASSWORD_MIN_LENGTH', DEFAULT_PASSWORD_MIN_LENGTH, 8, PASSWORD_MAX),
  API_RATE_PER_MINUTE: integer('API_RATE_PER_MINUTE', 1200, 1, 10_000_000),
  API_RATE_PER_ADDRESS_PER_MINUTE: integer('API_RATE_PER_ADDRESS_PER_MINUTE', 600, 1, 10_000_000),
  LIVE_STREAMS_PER_SESSION: integer('LIVE_STREAMS_PER_SESSION', 8, 1, 1000),
  ORDER_EXPIRY_MINUTES: integer('ORDER_EXPIRY_MINUTES', 30, 1, 7 * 24 * 60),
  COMMAND_TIMEOUT_SECONDS: integer('COMMAND_TIMEOUT_SECONDS', DEFAULT_COMMAND_TIMEOUT_SECONDS, 1, 3600),
  RAW_RETENTION_DAYS: integer('RAW_RETENTION_DAYS', 30, 1, 36_500),
  ROLLUP_RETENTION_DAYS: integer('ROLLUP_RETENTION_DAYS', 730, 1, 36_500),
  ROLLUP_FLUSH_MS: integer('ROLLUP_FLUSH_MS', 5000, 100, 60_000),
  ALARM_SHELVE_MAX_MINUTES: integer('ALARM_SHELVE_MAX_MINUTES', DEFAULT_SHELVE_MAX_MINUTES, 1, 24 * 60),
  WORKERS: integer('WORKERS', 1, 1, 64),
  // Defaults are applied in loadConfig: MQTT_PORT's depends on --demo, and each only applies without MQTT_URL.
  MQTT_PORT: optionalInteger('MQTT_PORT', 0, 65535),
  MQTT_HOST: optionalText,
  MQTT_TLS_CERT: optionalText,
  MQTT_TLS_KEY: optionalText,
  MQTT_TLS_PORT: optionalInteger('MQTT_TLS_PORT', 0, 65535),
  MQTT_PLAIN: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const normalised = value?.trim().toLowerCase();
      if (normalised === undefined) return undefined;
      if (normalised !== 'on' && normalised !== 'off') {
        ctx.addIssue({ code: 'custom', message: `MQTT_PLAIN must be on or off (got "${value}")` });
        return z.NEVER;
      }
      return normalised === 'on';
    }),
  MQTT_CONNECTIONS_PER_DEVICE: optionalInteger('MQTT_CONNECTIONS_PER_DEVICE', 1, 100),
  MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE: optionalInteger('MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE', 1, 1_000_000),
  MQTT_LOGIN_FAILURES_PER_HOUR: optionalInteger('MQTT_LOGIN_FAILURES_PER_HOUR', 1, 1_000_000),
  MQTT_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      let url: URL;
      try {
        url = new URL(value.trim());
      } catch {
        ctx.addIssue({ code: 'custom', message: 'MQTT_URL must be a URL such as mqtt://broker.internal:1883 (mqtt, mqtts, ws or wss)' });
        return z.NEVER;
      }
      if (!MQTT_URL_PROTOCOLS.includes(url.protocol) || url.hostname === '') {
        ctx.addIssue({
          code: 'custom',
          message: `MQTT_URL must start with mqtt://, mqtts://, ws:// or wss:// and name a host (got "${url.protocol}//${url.host}")`,
        });
        return z.NEVER;
      }
      return url;
    }),
  MQTT_PUBLIC_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const address = URL.canParse(value.trim()) ? brokerAddressOf(new URL(value.trim())) : undefined;
      if (address === undefined) {
        ctx.addIssue({ code: 'custom', message: `MQTT_PUBLIC_URL must be a URL such as mqtts://broker.example.com:8883 (mqtt, mqtts, ws or wss) (got "${value}")` });
        return z.NEVER;
      }
      return address;
    }),
  MQTT_USERNAME: optionalText,
  MQTT_PASSWORD: z.string().optional(),
  MQTT_CLIENT_ID: optionalText.refine((value) => value === undefined || (CLIENT_ID_PATTERN.test(value) && !isDeviceId(value)), {
    message:
      'MQTT_CLIENT_ID must be 1 to 64 of A-Z a-z 0-9 . _ - and contain a dot, so it can never be a device Id (devices use their Id as client id), e.g. oxygen.server.eu1',
  }),
  MQTT_SHARE_GROUP: optionalText.refine((value) => value === undefined || /^[A-Za-z0-9_-]{1,32}$/.test(value), {
    message: 'MQTT_SHARE_GROUP must be 1 to 32 of A-Z a-z 0-9 _ -, e.g. oxygen-staging',
  }),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value): boolean | number | string => {
      const trimmed = value?.trim().toLowerCase();
      if (trimmed === undefined || trimmed === 'false' || trimmed === '0') return false;
      if (trimmed === 'true') return true;
      if (/^\d+$/.test(trimmed)) return Number(trimmed);
      return value?.trim() ?? false;
    }),
  BEHIND_TLS: flag('BEHIND_TLS'),
  CONSOLE_PUBLIC_URL: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const url = URL.canParse(value.trim()) ? new URL(value.trim()) : undefined;
      if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
        ctx.addIssue({ code: 'custom', message: `CONSOLE_PUBLIC_URL must be an http or https URL such as https://oxygen.example.com (got "${value}")` });
        return z.NEVER;
      }
      return url.href.replace(/\/+$/, '');
    }),
  NOTIFY_LOCALE: oneOf('NOTIFY_LOCALE', LOCALES.map(({ locale }) => locale), DEFAULT_LOCALE, (value) => value),
  NOTIFY_ESCALATE_HIGH_MINUTES: integer('NOTIFY_ESCALATE_HIGH_MINUTES', 2, 0, 24 * 60),
  NOTIFY_ESCALATE_MEDIUM_MINUTES: integer('NOTIFY_ESCALATE_MEDIUM_MINUTES', 10, 0, 24 * 60),
  NOTIFY_ESCALATE_LOW_MINUTES: integer('NOTIFY_ESCALATE_LOW_MINUTES', 0, 0, 24 * 60),
  NOTIFY_GIVE_UP_MINUTES: integer('NOTIFY_GIVE_UP_MINUTES', 60, 1, 7 * 24 * 60),
  NOTIFY_TIMEOUT_SECONDS: integer('NOTIFY_TIMEOUT_SECONDS', 10, 1, 300),
});

/** The variables read, in documentation order. */
const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof typeof envSchema.shape)[];

type ParsedEnv = z.output<typeof envSchema>;

const EMBEDDED_ONLY = [
  'MQTT_PORT',
  'MQTT_HOST',
  'MQTT_TLS_CERT',
  'MQTT_TLS_KEY',
  'MQTT_TLS_PORT',
  'MQTT_PLAIN',
  'MQTT_CONNECTIONS_PER_DEVICE',
  'MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE',
  'MQTT_LOGIN_FAILURES_PER_HOUR',
] as const;

/** The embedded broker's limits by default (README.md, "Configuration"). */
export const DEFAULT_BROKER_LIMITS: BrokerLimits = { connectionsPerDevice: 2, connectsPerAddressPerMinute: 300, loginFailuresPerHour: 10 };

/** The embedded broker's listeners and limits, or the problems with them. */
const embeddedTarget = (env: ParsedEnv, options: LoadConfigOptions, cwd: string): MqttTarget | string[] => {
  const port = env.MQTT_PORT ?? (options.demo === true ? DEMO_MQTT_PORT : DEFAULT_MQTT_PORT);
  const plain = env.MQTT_PLAIN ?? true;
  const { MQTT_TLS_CERT: cert, MQTT_TLS_KEY: key } = env;
  const problems: string[] = [];
  if (cert !== undefined && key === undefined) problems.push('MQTT_TLS_KEY must be set with MQTT_TLS_CERT: the TLS listener needs the certificate and its private key');
  if (key !== undefined && cert === undefined) problems.push('MQTT_TLS_CERT must be set with MQTT_TLS_KEY: the TLS listener needs the certificate and its private key');
  const tlsSet = cert !== undefined && key !== undefined;
  if (!tlsSet && env.MQTT_TLS_PORT !== undefined) problems.push('MQTT_TLS_PORT is the TLS listener\'s: set MQTT_TLS_CERT and MQTT_TLS_KEY too, or unset MQTT_TLS_PORT');
  if (!tlsSet && !plain && cert === undefined && key === undefined) {
    problems.push('MQTT_PLAIN=off leaves the broker no listener: set MQTT_TLS_CERT and MQTT_TLS_KEY so devices connect over TLS');
  }
  const tlsPort = env.MQTT_TLS_PORT ?? DEFAULT_MQTT_TLS_PORT;
  if (tlsSet && plain && tlsPort !== 0 && tlsPort === port) problems.push(`MQTT_TLS_PORT must differ from MQTT_PORT (both ${port})`);
  if (problems.length > 0) return problems;
  return {
    kind: 'embedded',
    port,
    host: env.MQTT_HOST ?? '0.0.0.0',
    plain,
    tls: tlsSet ? { port: tlsPort, certFile: path.resolve(cwd, cert), keyFile: path.resolve(cwd, key) } : null,
    limits: {
      connectionsPerDevice: env.MQTT_CONNECTIONS_PER_DEVICE ?? DEFAULT_BROKER_LIMITS.connectionsPerDevice,
      connectsPerAddressPerMinute: env.MQTT_CONNECTS_PER_ADDRESS_PER_MINUTE ?? DEFAULT_BROKER_LIMITS.connectsPerAddressPerMinute,
      loginFailuresPerHour: env.MQTT_LOGIN_FAILURES_PER_HOUR ?? DEFAULT_BROKER_LIMITS.loginFailuresPerHour,
    },
  };
};
const EXTERNAL_ONLY = ['MQTT_USERNAME', 'MQTT_PASSWORD', 'MQTT_CLIENT_ID', 'MQTT_SHARE_GROUP'] as const;

/** The broker from the MQTT_* variables, or the problems with them. */
const mqttTarget = (env: ParsedEnv, options: LoadConfigOptions, cwd: string): MqttTarget | string[] => {
  const url = env.MQTT_URL;
  if (url === undefined) {
    const stray = EXTERNAL_ONLY.filter((name) => env[name] !== undefined);
    if (stray.length > 0) return stray.map((name) => `${name} applies to an external broker only: set MQTT_URL too, or unset ${name}`);
    return embeddedTarget(env, options, cwd);
  }
  const problems: string[] = [];
  for (const name of EMBEDDED_ONLY) {
    if (env[name] !== undefined) problems.push(`${name} is the embedded broker's and cannot be used with MQTT_URL: put the broker's host and port in MQTT_URL, or unset ${name}`);
  }
  const inUrl = url.username !== '' || url.password !== '';
  if (inUrl && (env.MQTT_USERNAME !== undefined || env.MQTT_PASSWORD !== undefined)) {
    problems.push('MQTT_URL carries credentials and MQTT_USERNAME/MQTT_PASSWORD are set too: give them in one place');
  }
  if (url.username === '' && url.password !== '') problems.push('MQTT_URL has a password without a user name');
  if (env.MQTT_USERNAME === undefined && env.MQTT_PASSWORD !== undefined) problems.push('MQTT_PASSWORD is set without MQTT_USERNAME');
  if (problems.length > 0) return problems;
  const username = inUrl ? decodeURIComponent(url.username) : env.MQTT_USERNAME;
  const password = inUrl ? (url.password === '' ? undefined : decodeURIComponent(url.password)) : env.MQTT_PASSWORD;
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return {
    kind: 'external',
    url: bare.href,
    username,
    password,
    clientId: env.MQTT_CLIENT_ID ?? defaultMqttClientId(options.hostname ?? hostname()),
    shareGroup: env.MQTT_SHARE_GROUP ?? SERVER_SHARE_GROUP,
  };
};

/**
 * Reads the configuration from `env` (usually process.env). Empty strings count as unset.
 * Throws ConfigError naming every bad variable.
 */
export const loadConfig = (env: Env, options: LoadConfigOptions = {}): Config => {
  const cwd = options.cwd ?? process.cwd();
  const input: Record<string, string | undefined> = {};
  for (const name of CONFIG_VARIABLES) {
    const value = env[name];
    input[name] = value === undefined || value.trim() === '' ? undefined : value;
  }
  const parsed = envSchema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const name = String(issue.path[0] ?? 'configuration');
        return issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`;
      }),
    );
  }
  const env2 = parsed.data;
  const mqtt = mqttTarget(env2, options, cwd);
  if (Array.isArray(mqtt)) throw new ConfigError(mqtt);
  const adminProblem =
    env2.ADMIN_PASSWORD === undefined ? null : passwordProblem(env2.ADMIN_PASSWORD, { minLength: env2.PASSWORD_MIN_LENGTH, isCommon: isCommonPassword });
  if (adminProblem !== null) {
    throw new ConfigError([
      `ADMIN_PASSWORD is not acceptable (${adminProblem}): it needs at least ${env2.PASSWORD_MIN_LENGTH} characters (PASSWORD_MIN_LENGTH), no spaces, upper and lower case letters and digits, and must not be a common password`,
    ]);
  }
  const dataDir = path.resolve(cwd, env2.DATA_DIR);
  return {
    port: env2.PORT,
    host: env2.HOST,
    dataDir,
    database:
      env2.DATABASE_URL === undefined
        ? { kind: 'sqlite', file: path.join(dataDir, 'oxygen.db') }
        : { kind: 'postgres', url: env2.DATABASE_URL },
    apiPrefix: env2.API_PREFIX,
    adminAccount: env2.ADMIN_ACCOUNT,
    adminPassword: env2.ADMIN_PASSWORD ?? (options.demo === true ? DEMO_ADMIN_PASSWORD : undefined),
    consoleDir: path.resolve(cwd, env2.CONSOLE_DIR),
    logLevel: env2.LOG_LEVEL,
    sqliteSynchronous: env2.SQLITE_SYNCHRONOUS,
    tokenIdleMinutes: env2.TOKEN_IDLE_MINUTES,
    tokenMaxHours: env2.TOKEN_MAX_HOURS,
    scryptCost: env2.SCRYPT_COST,
    loginFailuresPerAccountPerHour: env2.LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR,
    loginFailuresPerAddressPerHour: env2.LOGIN_FAILURES_PER_ADDRESS_PER_HOUR,
    loginFailuresPerPairPerHour: env2.LOGIN_FAILURES_PER_PAIR_PER_HOUR,
    passwordMinLength: env2.PASSWORD_MIN_LENGTH,
    apiRatePerMinute: env2.API_RATE_PER_MINUTE,
    apiRatePerAddressPerMinute: env2.API_RATE_PER_ADDRESS_PER_MINUTE,
    liveStreamsPerSession: env2.LIVE_STREAMS_PER_SESSION,
    trustProxy: env2.TRUST_PROXY,
    behindTls: env2.BEHIND_TLS,
    orderExpiryMinutes: env2.ORDER_EXPIRY_MINUTES,
    commandTimeoutSeconds: env2.COMMAND_TIMEOUT_SECONDS,
    rawRetentionDays: env2.RAW_RETENTION_DAYS,
    rollupRetentionDays: env2.ROLLUP_RETENTION_DAYS,
    rollupFlushMs: env2.ROLLUP_FLUSH_MS,
    alarmShelveMaxMinutes: env2.ALARM_SHELVE_MAX_MINUTES,
    workers: env2.WORKERS,
    mqtt,
    mqttPublicUrl: env2.MQTT_PUBLIC_URL,
    notifications: {
      publicUrl: env2.CONSOLE_PUBLIC_URL ?? `http://localhost:${env2.PORT}`,
      locale: env2.NOTIFY_LOCALE,
      escalateMinutes: { high: env2.NOTIFY_ESCALATE_HIGH_MINUTES, medium: env2.NOTIFY_ESCALATE_MEDIUM_MINUTES, low: env2.NOTIFY_ESCALATE_LOW_MINUTES },
      giveUpMinutes: env2.NOTIFY_GIVE_UP_MINUTES,
      timeoutSeconds: env2.NOTIFY_TIMEOUT_SECONDS,
    },
  };
};

/** The broker, for logs (an external broker's URL never carries its password: see MqttTarget). */
export const describeMqtt = (target: MqttTarget): string =>
  target.kind === 'embedded'
    ? `embedded broker on ${[target.plain ? `${target.host}:${target.port}` : undefined, target.tls === null ? undefined : `${target.host}:${target.tls.port} (TLS)`].filter(Boolean).join(' and ')}`
    : `external broker ${target.url}${target.username === undefined ? '' : ` as ${target.username}`} (client id ${target.clientId})`;

/** A PostgreSQL URL with its password masked, for logs. */
export const describeDatabase = (target: DatabaseTarget): string => {
  if (target.kind === 'sqlite') return `SQLite ${target.file}`;
  try {
    const url = new URL(target.url);
    if (url.password) url.password = '***';
    return `PostgreSQL ${url.toString()}`;
  } catch {
    return 'PostgreSQL';
  }
};
