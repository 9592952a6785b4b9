import { HttpResponse } from 'msw';
import { CODES, HTTP_STATUS, type Code } from '../src/domain/envelope';

/** The upstream envelope as the mocks answer it, with the HTTP status docs/product.md pairs with each code. */
export const ok = <T>(data: T) => HttpResponse.json({ data, status: 'ok', msg: '', code: CODES.ok });

export const fail = (code: Code, msg: string) =>
  HttpResponse.json({ data: null, status: 'fail', msg, code }, { status: HTTP_STATUS[code] });

/** A REST error as the server answers it (server/rest/errors.ts): the HTTP status and `{ message, code }`. */
export const restFail = (code: Code, message: string) => HttpResponse.json({ message, code }, { status: HTTP_STATUS[code] });
