import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeDatabase, describeMqtt, loadConfig } from '../../server/config';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, { cwd: '/srv/oxygen' });
    expect(config).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/srv/oxygen/data',
      database: { kind: 'sqlite', file: '/srv/oxygen/data/oxygen.db' },
      apiPrefix: '/upstream',
      adminAccount: 'admin',
      adminPassword: undefined,
      consoleDir: '/srv/oxygen/dist/console',
      logLevel: 'info',
      sqliteSynchronous: 'NORMAL',
      tokenIdleMinutes: 30,
      tokenMaxHours: 12,
      scryptCost: 17,
      loginFailuresPerAccountPerHour: 100,
      loginFailuresPerAddressPerHour: 300,
      loginFailuresPerPairPerHour: 20,
      passwordMinLength: 12,
      apiRatePerMinute: 1200,
      apiRatePerAddressPerMinute: 600,
      liveStreamsPerSession: 8,
      trustProxy: false,
      behindTls: false,
      orderExpiryMinutes: 30,
      commandTimeoutSeconds: 10,
      rawRetentionDays: 30,
      rollupRetentionDays: 730,
      rollupFlushMs: 5000,
      alarmShelveMaxMinutes: 60,
      workers: 1,
      mqtt: { kind: 'embedded', port: 1883, host: '0.0.0.0', plain: true, tls: null, limits: { connectionsPerDevice: 2, connectsPerAddressPerMinute: 300, loginFailuresPerHour: 10 } },
      mqttPublicUrl: undefined,
      notifications: { publicUrl: 'http://localhost:8080', locale: 'zh-CN', escalateMinutes: { high: 2, medium: 10, low: 0 }, giveUpMinutes: 60, timeoutSeconds: 10 },
    });
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '127.0.0.1',
        DATA_DIR: '/var/lib/oxygen',
        DATABASE_URL: 'postgres://oxygen:pw@db:5432/oxygen',
        API_PREFIX: '/up/v2',
        ADMIN_ACCOUNT: ' root ',
        ADMIN_PASSWORD: 'Secret2026',
        CONSOLE_DIR: 'web',
        LOG_LEVEL: 'WARN',
        SQLITE_SYNCHRONOUS: 'full',
        TOKEN_IDLE_MINUTES: '15',
        TOKEN_MAX_HOURS: '8',
        SCRYPT_COST: '12',
        LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '5',
        LOGIN_FAILURES_PER_ADDRESS_PER_HOUR: '50',
        LOGIN_FAILURES_PER_PAIR_PER_HOUR: '4',
        PASSWORD_MIN_LENGTH: '10',
        API_RATE_PER_MINUTE: '5000',
        API_RATE_PER_ADDRESS_PER_MINUTE: '900',
        LIVE_STREAMS_PER_SESSION: '3',
        TRUST_PROXY: '10.0.0.0/8',
        BEHIND_TLS: 'true',
        ORDER_EXPIRY_MINUTES: '45',
        COMMAND_TIMEOUT_SECONDS: '20',
        RAW_RETENTION_DAYS: '7',
        ROLLUP_RETENTION_DAYS: '365',
        ROLLUP_FLUSH_MS: '2000',
        WORKERS: '2',
        MQTT_PORT: '0',
        MQTT_HOST: '127.0.0.1',
      },
      { cwd: '/srv' },
    );
    expect(config).toMatchObject({
      port: 9000,
      host: '127.0.0.1',
      dataDir: '/var/lib/oxygen',
      database: { kind: 'postgres', url: 'postgres://oxygen:pw@db:5432/oxygen' },
      apiPrefix: '/up/v2',
      adminAccount: 'root',
      adminPassword: 'Secret2026',
      consoleDir: path.resolve('/srv', 'web'),
      logLevel: 'warn',
      sqliteSynchronous: 'FULL',
      tokenIdleMinutes: 15,
      tokenMaxHours: 8,
      scryptCost: 12,
      loginFailuresPerAccountPerHour: 5,
      loginFailuresPerAddressPerHour: 50,
      loginFailuresPerPairPerHour: 4,
      passwordMinLength: 10,
      apiRatePerMinute: 5000,
      apiRatePerAddressPerMinute: 900,
      liveStreamsPerSession: 3,
      trustProxy: '10.0.0.0/8',
      behindTls: true,
      orderExpiryMinutes: 45,
      commandTimeoutSeconds: 20,
      rawRetentionDays: 7,
      rollupRetentionDays: 365,
      rollupFlushMs: 2000,
      alarmShelveMaxMinutes: 60,
      workers: 2,
      mqtt: { kind: 'embedded', port: 0, host: '127.0.0.1' },
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ BEHIND_TLS: ' On ' }).behindTls).toBe(true);
    expect(loadConfig({ BEHIND_TLS: 'off' }).behindTls).toBe(false);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', ADMIN_PASSWORD: ' ' })).toMatchObject({
      port: 8080,
      database: { kind: 'sqlite' },
      adminPassword: undefined,
    });
  });

  it('defaults MQTT_PORT to 1884 in demo mode (a local Mosquitto usually holds 1883); MQTT_PORT still wins', () => {
    expect(loadConfig({}, { demo: true }).mqtt).toMatchObject({ kind: 'embedded', port: 1884, host: '0.0.0.0' });
    expect(loadConfig({ MQTT_PORT: '2883' }, { demo: true }).mqtt).toMatchObject({ kind: 'embedded', port: 2883, host: '0.0.0.0' });
  });

  it('reads an external broker from MQTT_URL, credentials from the URL or MQTT_USERNAME/MQTT_PASSWORD, never kept in the URL', () => {
    expect(loadConfig({ MQTT_URL: 'mqtt://oxygen.server:p%40ss@broker.internal:1883' }, { hostname: 'web-1' }).mqtt).toEqual({
      kind: 'external',
      url: 'mqtt://broker.internal:1883',
      username: 'oxygen.server',
      password: 'p@ss',
      clientId: 'oxygen.server.web-1',
      shareGroup: 'oxygen',
    });
    expect(
      loadConfig({ MQTT_URL: 'wss://broker.example.com/mqtt', MQTT_USERNAME: 'oxygen.server', MQTT_PASSWORD: ' s3cret', MQTT_CLIENT_ID: 'oxygen.eu1' }).mqtt,
    ).toEqual({ kind: 'external', url: 'wss://broker.example.com/mqtt', username: 'oxygen.server', password: ' s3cret', clientId: 'oxygen.eu1', shareGroup: 'oxygen' });
    expect(loadConfig({ MQTT_URL: 'mqtt://broker', MQTT_SHARE_GROUP: 'oxygen-staging' }).mqtt).toMatchObject({ shareGroup: 'oxygen-staging' });
    expect(loadConfig({ MQTT_URL: 'mqtts://broker:8883' }, { hostname: 'db host.local' }).mqtt).toMatchObject({
      username: undefined,
      password: undefined,
      clientId: 'oxygen.server.db-host-local',
    });
    const described = describeMqtt(loadConfig({ MQTT_URL: 'mqtt://oxygen.server:hunter2@broker:1883' }, { hostname: 'h' }).mqtt);
    expect(described).toBe('external broker mqtt://broker:1883 as oxygen.server (client id oxygen.server.h)');
    expect(describeMqtt(loadConfig({}).mqtt)).toBe('embedded broker on 0.0.0.0:1883');
  });

  it('reads where chambers reach the broker, its port defaulting to the scheme\'s', () => {
    expect(loadConfig({ MQTT_PUBLIC_URL: 'mqtts://broker.example.com' }).mqttPublicUrl).toEqual({ scheme: 'mqtts', host: 'broker.example.com', port: 8883 });
    expect(loadConfig({ MQTT_PUBLIC_URL: ' mqtt://10.0.0.5:1884 ' }).mqttPublicUrl).toEqual({ scheme: 'mqtt', host: '10.0.0.5', port: 1884 });
  });

  it.each([
    [{ MQTT_URL: 'broker:1883' }, 'MQTT_URL must'],
    [{ MQTT_URL: 'http://broker:1883' }, 'MQTT_URL must start with mqtt://'],
    [{ MQTT_URL: 'mqtt://a:b@broker', MQTT_PASSWORD: 'c' }, 'give them in one place'],
    [{ MQTT_URL: 'mqtt://:b@broker' }, 'MQTT_URL has a password without a user name'],
    [{ MQTT_URL: 'mqtt://broker', MQTT_PASSWORD: 'c' }, 'MQTT_PASSWORD is set without MQTT_USERNAME'],
    [{ MQTT_URL: 'mqtt://broker', MQTT_PORT: '1884' }, "MQTT_PORT is the embedded broker's"],
    [{ MQTT_URL: 'mqtt://broker', MQTT_HOST: '127.0.0.1' }, "MQTT_HOST is the embedded broker's"],
    [{ MQTT_URL: 'mqtt://broker', MQTT_CLIENT_ID: 'server-1' }, 'MQTT_CLIENT_ID must'],
    [{ MQTT_URL: 'mqtt://broker', MQTT_CLIENT_ID: 'oxygen server' }, 'MQTT_CLIENT_ID must'],
    [{ MQTT_USERNAME: 'oxygen.server' }, 'MQTT_USERNAME applies to an external broker only'],
    [{ MQTT_CLIENT_ID: 'oxygen.x' }, 'MQTT_CLIENT_ID applies to an external broker only'],
    [{ MQTT_SHARE_GROUP: 'oxygen' }, 'MQTT_SHARE_GROUP applies to an external broker only'],
    [{ MQTT_URL: 'mqtt://broker', MQTT_SHARE_GROUP: 'a/b' }, 'MQTT_SHARE_GROUP must'],
    [{ MQTT_PORT: '65536' }, 'MQTT_PORT must be a whole number from 0 to 65535'],
    [{ MQTT_PUBLIC_URL: 'broker.example.com:8883' }, 'MQTT_PUBLIC_URL must be a URL'],
    [{ MQTT_PUBLIC_URL: 'https://broker.example.com' }, 'MQTT_PUBLIC_URL must be a URL'],
  ])('refuses the MQTT settings %o naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('defaults ADMIN_PASSWORD to the demo password in demo mode only', () => {
    expect(loadConfig({}, { demo: true }).adminPassword).toBe('Admin2026');
    expect(loadConfig({ ADMIN_PASSWORD: 'Other2026chamber' }, { demo: true }).adminPassword).toBe('Other2026chamber');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['API_PREFIX', 'upstream'],
    ['API_PREFIX', '/upstream/'],
    ['API_PREFIX', '/api/v1'],
    ['ADMIN_PASSWORD', 'weak'],
    ['ADMIN_PASSWORD', 'Short2026ab'],
    ['ADMIN_PASSWORD', 'Password1234'],
    ['PASSWORD_MIN_LENGTH', '7'],
    ['API_RATE_PER_MINUTE', '0'],
    ['LIVE_STREAMS_PER_SESSION', '0'],
    ['LOG_LEVEL', 'loud'],
    ['SQLITE_SYNCHRONOUS', 'sometimes'],
    ['TOKEN_IDLE_MINUTES', '0'],
    ['SCRYPT_COST', '30'],
    ['LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR', '-1'],
    ['WORKERS', '0'],
    ['WORKERS', '1.5'],
    ['WORKERS', '65'],
    ['WORKERS', 'two'],
    ['BEHIND_TLS', 'maybe'],
  ])('names the bad variable %s=%s', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toHaveLength(1);
    expect((error as ConfigError).problems[0]).toMatch(new RegExp(`^${name}`));
    expect((error as ConfigError).message).toContain(name);
  });

  it('lists every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT[\s\S]*LOG_LEVEL/);
  });

  it('masks the PostgreSQL password when describing the store', () => {
    const described = describeDatabase({ kind: 'postgres', url: 'postgres://oxygen:hunter2@db/oxygen' });
    expect(described).not.toContain('hunter2');
    expect(described).toContain('db');
  });
});
