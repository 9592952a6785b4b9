/** The upstream's response envelope and its codes (docs/product.md, "Wire contract"). */
export const CODES = {
  ok: 20000,
  failure: 50000,
  notSignedIn: 50008,
  emptyDeviceId: 401,
  badInput: 40000,
  forbidden: 40300,
  notFound: 40400,
  tooManyAttempts: 42900,
} as const;
export type Code = (typeof CODES)[keyof typeof CODES];

/** HTTP status sent with each code, so proxies and logs tell failures apart too. */
export const HTTP_STATUS: Record<Code, number> = {
  [CODES.ok]: 200,
  [CODES.failure]: 500,
  [CODES.notSignedIn]: 401,
  [CODES.emptyDeviceId]: 400,
  [CODES.badInput]: 400,
  [CODES.forbidden]: 403,
  [CODES.notFound]: 404,
  [CODES.tooManyAttempts]: 429,
};

export interface Envelope<T = unknown> {
  data: T;
  status: 'ok' | 'fail';
  msg: string;
  code: number;
}

export const isEnvelope = (body: unknown): body is Envelope =>
  typeof body === 'object' &&
  body !== null &&
  'code' in body &&
  'status' in body &&
  typeof (body as { code: unknown }).code === 'number';
