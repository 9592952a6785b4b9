import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { CODES, HTTP_STATUS, type Code } from '../../src/domain/envelope';
import { languageOf, type AppError } from '../http/envelope';
import { translate } from '../http/messages';
import { failureOf } from '../http/plugin';

/**
 * Failures of the REST API, in the shape ra-data-simple-rest reads: the HTTP status (react-admin's
 * HttpError.status; 401 signs the console out) and a JSON body whose `message` is shown to the user,
 * already in the caller's language (Accept-Language), plus the envelope's `code` for programs:
 *   401 { "message": "not logged in", "code": 50008 }
 * The same errors as the upstream's envelope (server/http/plugin.ts), rendered differently.
 */
interface RestError {
  message: string;
  code: Code;
}

/** Unknown paths under /api/v1: 404 { message, code: 40400 }. */
export const restNotFound = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
  await reply
    .code(HTTP_STATUS[CODES.notFound])
    .send({ message: translate(languageOf(request), 'notFound'), code: CODES.notFound } satisfies RestError);
};

/** Every error of a REST route as status + `{ message, code }` (the meaning is the upstream's: failureOf). */
export const restErrorHandler = async (error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
  const failure: RestError = failureOf(error, request);
  return reply.code(HTTP_STATUS[failure.code]).send(failure);
};
