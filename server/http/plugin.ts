import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { CODES, HTTP_STATUS, type Code } from '../../src/domain/envelope';
import { AppError, fail, languageOf } from './envelope';
import { translate, type MessageKey, type MessageParams } from './messages';
import { zodValidatorCompiler } from './validation';

/** Fastify's own request errors, answered as bad input. */
const FASTIFY_BAD_INPUT: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'validation.body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'validation.body',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation.body',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'validation.mediaType',
  FST_ERR_CTP_BODY_TOO_LARGE: 'validation.bodyTooLarge',
};

/** A failure as the caller will read it: the envelope's code and a message in the caller's language. */
export interface Failure {
  code: Code;
  message: string;
}

/**
 * What any error means for the caller: an AppError says it itself; Fastify's own request errors are bad
 * input; anything unexpected is logged and becomes 50000 with a generic message, so internals never leak.
 * The upstream renders it as the envelope, the REST API as `{ message, code }`.
 */
export const failureOf = (error: FastifyError | AppError, request: FastifyRequest): Failure => {
  const language = languageOf(request);
  const said = (code: Code, key: MessageKey, params?: MessageParams): Failure => ({ code, message: translate(language, key, params) });
  if (error instanceof AppError) return { code: error.code, message: error.render(language) };
  const known = FASTIFY_BAD_INPUT[error.code];
  if (known !== undefined) return said(CODES.badInput, known);
  const status = error.statusCode ?? 500;
  if (status === 404) return said(CODES.notFound, 'notFound');
  if (status >= 400 && status < 500) {
    request.log.info({ err: error }, 'request refused');
    return said(CODES.badInput, 'validation.invalid', { field: 'request' });
  }
  request.log.error({ err: error }, 'request failed');
  return said(CODES.failure, 'failure');
};

/** Answers 40400 in the envelope: used for unknown paths under API_PREFIX. */
export const upstreamNotFound = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  await reply.code(HTTP_STATUS[CODES.notFound]).send(fail(CODES.notFound, translate(languageOf(request), 'notFound')));
};

/** Every error becomes the envelope `{ data: null, status: 'fail', msg, code }` with the matching HTTP status. */
export const errorHandler = async (error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
  const { code, message } = failureOf(error, request);
  return reply.code(HTTP_STATUS[code]).send(fail(code, message));
};

/**
 * Request handling shared by all routes: zod schemas validate request parts (bad input → 40000
 * naming the field), errors become envelopes, and a JSON body may be empty (react-admin's fetch sends
 * `Content-Type: application/json` on POSTs without a body).
 */
export const httpPlugin = fp(
  async (app) => {
    app.setValidatorCompiler(zodValidatorCompiler);
    app.setErrorHandler(errorHandler);

    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      void parseJson(request, text, done);
    });
  },
  { name: 'oxygen-http', fastify: '5.x' },
);
