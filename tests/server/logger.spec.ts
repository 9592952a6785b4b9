import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loggerOptions } from '../../server/logger';
import type { LogLevel } from '../../server/config';
import { useStore } from './stores';

const sinkOf = (lines: string[]): Writable =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });

describe('logger', () => {
  it('redacts authorization headers, passwords and tokens', () => {
    const lines: string[] = [];
    const log = pino(loggerOptions('info'), sinkOf(lines));
    log.info({ req: { headers: { authorization: 'Bearer SECRET-TOKEN', cookie: 'sid=SECRET-COOKIE' } } }, 'request');
    log.info({ body: { Account: 'admin', Code: 'SECRET-CODE', NewCode: 'SECRET-NEW' } }, 'body');
    log.info({ password: 'SECRET-PASSWORD', result: { token: 'SECRET-T2' } }, 'flat');
    const text = lines.join('');
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

  /** The app with a pino logger at `level` into `lines`; /probe answers whether the request's logger is the app's own. */
  const appAt = async (level: LogLevel, lines: string[]): Promise<FastifyInstance> => {
    app = buildApp({ config: store.config(), logger: pino(loggerOptions(level), sinkOf(lines)) });
    app.get('/probe', async (request) => ({ own: request.log === app?.log }));
    await app.ready();
    return app;
  };

  it('logs each request with its own child logger at a level that writes', async () => {
    const lines: string[] = [];
    const served = await appAt('info', lines);
    expect((await served.inject({ method: 'GET', url: '/probe' })).json()).toEqual({ own: false });
    served.log.warn('written');
    const text = lines.join('');
    expect(text).toContain('request completed');
    expect(text).toContain('written');
  });

  it('at silent, writes nothing and derives no logger per request (its cost, bench/README.md)', async () => {
    const lines: string[] = [];
    const served = await appAt('silent', lines);
    expect((await served.inject({ method: 'GET', url: '/probe' })).json()).toEqual({ own: true });
    served.log.error('dropped');
    expect(lines).toEqual([]);
  });
});
