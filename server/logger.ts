import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from './config';

/** Never logged: bearer tokens, cookies, passwords in any field the upstream uses for them. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'authorization',
  'body.Code',
  'body.OldCode',
  'body.NewCode',
  'body.password',
  'Code',
  'OldCode',
  'NewCode',
  'password',
  'token',
  '*.Code',
  '*.OldCode',
  '*.NewCode',
  '*.password',
  '*.token',
];

/** pino options for fastify's logger. */
export const loggerOptions = (level: LogLevel): NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> => ({
  level,
  redact: { paths: REDACT_PATHS, censor: '[redacted]' },
});
