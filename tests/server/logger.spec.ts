import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../server/logger';

describe('logger', () => {
  it('redacts authorization headers, passwords and tokens', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = pino(loggerOptions('info'), sink);
    log.info({ req: { headers: { authorization: 'Bearer SECRET-TOKEN', cookie: 'sid=SECRET-COOKIE' } } }, 'request');
    log.info({ body: { Account: 'admin', Code: 'SECRET-CODE', NewCode: 'SECRET-NEW' } }, 'body');
    log.info({ password: 'SECRET-PASSWORD', result: { token: 'SECRET-T2' } }, 'flat');
    const text = lines.join('');
    expect(text).toContain('admin');
    expect(text).toContain('[redacted]');
    expect(text).not.toMatch(/SECRET/);
  });
});
