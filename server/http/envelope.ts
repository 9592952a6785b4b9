import type { FastifyRequest } from 'fastify';
import type { Locale } from '../../src/domain/locales';
import { CODES, HTTP_STATUS, type Code, type Envelope } from '../../src/domain/envelope';
import { pickLanguage, translate, type MessageKey, type MessageParams } from './messages';

/** A success envelope. */
export const ok = <T>(data: T, msg = 'success'): Envelope<T> => ({ data, status: 'ok', msg, code: CODES.ok });

/** Stands for a rendered list in the envelope's text until the text is put in its place. */
const RENDERED_LIST = '\u0000rendered list';
const RENDERED_LIST_JSON = JSON.stringify(RENDERED_LIST);

/**
 * ok({ list, total }, msg) as JSON text, with `list` already JSON text (a list rendered by the store:
 * server/lists/answer.ts, RenderedList). The envelope is written by JSON.stringify like every other
 * answer's; only the list's place in it is filled with the text as it is.
 */
export const okRendered = (list: string, total: number, msg: string, totalIsLowerBound?: true): string =>
  JSON.stringify(ok({ list: RENDERED_LIST, total, ...(totalIsLowerBound ? { totalIsLowerBound } : {}) }, msg)).replace(RENDERED_LIST_JSON, () => list);

/** A failure envelope; failures carry no data. */
export const fail = (code: Code, msg: string): Envelope<null> => ({ data: null, status: 'fail', msg, code });

/** The caller's language, from Accept-Language (pickLanguage). */
export const languageOf = (request: FastifyRequest): Locale => pickLanguage(request.headers['accept-language']);

/** A catalogue text in the caller's language. */
export const t = (request: FastifyRequest, key: MessageKey, params?: MessageParams): string =>
  translate(languageOf(request), key, params);

/**
 * A failure to answer with an envelope: the code picks the HTTP status (HTTP_STATUS), the message key
 * and parameters are rendered in the caller's language by the error handler.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: Code,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
  ) {
    super(`${key} (${code})`);
    this.name = 'AppError';
    this.statusCode = HTTP_STATUS[code];
  }

  /** The msg for the envelope. */
  render(language: Locale): string {
    return translate(language, this.key, this.params);
  }
}

export const notSignedIn = (): AppError => new AppError(CODES.notSignedIn, 'auth.notSignedIn');
export const forbidden = (): AppError => new AppError(CODES.forbidden, 'forbidden');
export const notFound = (): AppError => new AppError(CODES.notFound, 'notFound');
export const badInput = (key: MessageKey, params?: MessageParams): AppError =>
  new AppError(CODES.badInput, key, params);
