import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loggerOptions } from '../../server/logger';
import type { LogLevel } from '../../server/config';
import { capturedLog } from './captured-log';
import { useStore } from './stores';

describe('logger', () => {
  it('redacts authorization headers, passwords and tokens', () => {
    const { logger: log, text: written } = capturedLog(loggerOptions('info'));
    log.info({ req: { headers: { authorization: 'Bearer SECRET-TOKEN', cookie: 'sid=SECRET-COOKIE' } } }, 'request');
    log.info({ body: { Account: 'admin', Code: 'SECRET-CODE', NewCode: 'SECRET-NEW' } }, 'body');
    log.info({ password: 'SECRET-PASSWORD', result: { token: 'SECRET-T2' } }, 'flat');
    const text = written();
    expect(text).toContain('admin');
    expect(text).toContain('[redacted]');
    expect(text).not.toMatch(/SECRET/);
  });
});

describe('the server with a logger at a level', () => {
  const store = useStore('sqlite');
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** The app with a pino logger at `level` into `log`; /probe answers whether the request's logger is the app's own. */
  const appAt = async (level: LogLevel, log: ReturnType<typeof capturedLog>): Promise<FastifyInstance> => {
    app = buildApp({ config: store.config(), logger: log.logger });
    app.get('/probe', async (request) => ({ own: request.log === app?.log }));
    await app.ready();
    return app;
  };

  it('logs each request with its own child logger at a level that writes', async () => {
    const log = capturedLog(loggerOptions('info'));
    const served = await appAt('info', log);
    expect((await served.inject({ method: 'GET', url: '/probe' })).json()).toEqual({ own: false });
    served.log.warn('written');
    const text = log.text();
    expect(text).toContain('request completed');
    expect(text).toContain('written');
  });

  it('at silent, writes nothing and derives no logger per request (its cost, docs/performance.md)', async () => {
    const log = capturedLog(loggerOptions('silent'));
    const served = await appAt('silent', log);
    expect((await served.inject({ method: 'GET', url: '/probe' })).json()).toEqual({ own: true });
    served.log.error('dropped');
    expect(log.text()).toBe('');
  });
});
