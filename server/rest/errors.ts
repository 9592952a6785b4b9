import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { CODES, HTTP_STATUS, type Code } from '../../src/domain/envelope';
import { AppError, languageOf } from '../http/envelope';
import { translate, type MessageKey, type MessageParams } from '../http/messages';

/**
 * Failures of the REST API, in the shape ra-data-simple-rest reads: the HTTP status (react-admin's
 * HttpError.status; 401 signs the console out) and a JSON body whose `message` is shown to the user,
 * already in the caller's language (Accept-Language), plus the envelope's `code` for programs:
 *   401 { "message": "not logged in", "code": 50008 }
 * The same errors as the upstream's envelope (server/http/plugin.ts), rendered differently.
 */
export interface RestError {
  message: string;
  code: Code;
}

/** Fastify's own request errors, answered as bad input (as server/http/plugin.ts does for the upstream). */
const FASTIFY_BAD_INPUT: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'validation.body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'validation.body',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation.body',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'validation.mediaType',
  FST_ERR_CTP_BODY_TOO_LARGE: 'validation.bodyTooLarge',
};

const send = (request: FastifyRequest, reply: FastifyReply, code: Code, key: MessageKey, params?: MessageParams) =>
  reply.code(HTTP_STATUS[code]).send({ message: translate(languageOf(request), key, params), code } satisfies RestError);

/** Unknown paths under /api/v1: 404 { message, code: 40400 }. */
export const restNotFound = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  await send(request, reply, CODES.notFound, 'notFound');
};

/** Every error of a REST route as status + `{ message, code }`; unexpected ones are logged and answered 500 generically. */
export const restErrorHandler = async (error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
  if (error instanceof AppError) {
    return reply.code(error.statusCode).send({ message: error.render(languageOf(request)), code: error.code } satisfies RestError);
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
