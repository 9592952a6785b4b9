import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { CODES, HTTP_STATUS, type Code } from '../../src/domain/envelope';
import { globalPlugin } from '../plugin';
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

const send = (request: FastifyRequest, reply: FastifyReply, code: Code, key: MessageKey, params?: MessageParams) =>
  reply.code(HTTP_STATUS[code]).send(fail(code, translate(languageOf(request), key, params)));

/** Answers 40400 in the envelope: used for unknown paths under API_PREFIX. */
export const upstreamNotFound = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  await send(request, reply, CODES.notFound, 'notFound');
};

/**
 * Every error becomes the envelope `{ data: null, status: 'fail', msg, code }` with the matching HTTP
 * status and a msg in the caller's language. Unexpected errors are logged and answered 50000 with a
 * generic msg: internals never leak.
 */
export const errorHandler = async (error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
  if (error instanceof AppError) {
    return reply.code(error.statusCode).send(fail(error.code, error.render(languageOf(request))));
  }
  const known = FASTIFY_BAD_INPUT[error.code];
  if (known !== undefined) return send(request, reply, CODES.badInput, known);
  const status = error.statusCode ?? 500;
  if (status === 404) return send(request, reply, CODES.notFound, 'notFound');
  if (status >= 400 && status < 500) {
    request.log.info({ err: error }, 'request refused');
    return send(request, reply, CODES.badInput, 'validation.invalid', { field: 'request' });
  }
  request.log.error({ err: error }, 'request failed');
  return send(request, reply, CODES.failure, 'failure');
};

/**
 * Request handling shared by all routes: zod schemas validate request parts (bad input → 40000
 * naming the field), errors become envelopes, and a JSON body may be empty (react-admin's fetch sends
 * `Content-Type: application/json` on POSTs without a body).
 */
export const httpPlugin = globalPlugin('oxygen-http', async (app) => {
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
});
