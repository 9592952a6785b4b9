import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeDatabase, loadConfig } from '../../server/config';

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
      trustProxy: false,
      orderExpiryMinutes: 30,
      workers: 1,
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
        TRUST_PROXY: '10.0.0.0/8',
        ORDER_EXPIRY_MINUTES: '45',
        WORKERS: '2',
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
      trustProxy: '10.0.0.0/8',
      orderExpiryMinutes: 45,
      workers: 2,
    });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '', ADMIN_PASSWORD: ' ' })).toMatchObject({
      port: 8080,
      database: { kind: 'sqlite' },
      adminPassword: undefined,
    });
  });

  it('defaults ADMIN_PASSWORD to the demo password in demo mode only', () => {
    expect(loadConfig({}, { demo: true }).adminPassword).toBe('Admin2026');
    expect(loadConfig({ ADMIN_PASSWORD: 'Other2026' }, { demo: true }).adminPassword).toBe('Other2026');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['API_PREFIX', 'upstream'],
    ['API_PREFIX', '/upstream/'],
    ['API_PREFIX', '/api/v1'],
    ['ADMIN_PASSWORD', 'weak'],
    ['LOG_LEVEL', 'loud'],
    ['SQLITE_SYNCHRONOUS', 'sometimes'],
    ['TOKEN_IDLE_MINUTES', '0'],
    ['SCRYPT_COST', '30'],
    ['LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR', '-1'],
    ['WORKERS', '0'],
    ['WORKERS', '1.5'],
    ['WORKERS', '65'],
    ['WORKERS', 'two'],
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
