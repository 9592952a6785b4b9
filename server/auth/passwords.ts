import { randomBytes, randomInt, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { CODES } from '../../src/domain/envelope';
import { passwordProblem } from '../../src/domain/password';
import { AppError } from '../http/envelope';
import { Semaphore } from './semaphore';

/**
 * Password hashing with scrypt (N = 2^cost, r = 8, p = 1, 16-byte salt, 64-byte key), stored
 * self-describing as `scrypt$<cost>$<r>$<p>$<salt b64>$<hash b64>` so the cost can be raised later
 * without breaking stored hashes.
 */

const SCRYPT_R = 8;
const SCRYPT_P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 64;

/** At most this many hashes run at once in the process (each takes 128·N·r bytes: 128 MiB at cost 17). */
export const HASH_CONCURRENCY = 2;
/**
 * A hash waits this long for a slot before it is answered "busy": a correct sign-in inside a burst waits its
 * turn rather than being refused (waiting costs a pending request, no memory to speak of). Turns go address by
 * address (./semaphore), so a burst from one address delays another address's sign-in by about one hash.
 */
const HASH_MAX_WAIT_MS = 60_000;
/** Hashes waiting at once beyond this are answered "busy" at once: a bound on pending requests, far above any site's staff. */
const HASH_MAX_QUEUED = 10_000;

interface ScryptParams {
  cost: number;
  r: number;
  p: number;
}

export interface StoredHash extends ScryptParams {
  salt: Buffer;
  hash: Buffer;
}

const formatHash = ({ cost, r, p, salt, hash }: StoredHash): string =>
  ['scrypt', cost, r, p, salt.toString('base64'), hash.toString('base64')].join('$');

/** Parses a stored hash; undefined when it is not in our format or its parameters are out of range. */
export const parseHash = (stored: string): StoredHash | undefined => {
  const match = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/.exec(stored);
  if (match === null) return undefined;
  const [, cost, r, p, salt, hash] = match;
  const params = { cost: Number(cost), r: Number(r), p: Number(p) };
  if (params.cost < 1 || params.cost > 24 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) {
    return undefined;
  }
  return { ...params, salt: Buffer.from(salt ?? '', 'base64'), hash: Buffer.from(hash ?? '', 'base64') };
};

const scryptOptions = ({ cost, r, p }: ScryptParams): ScryptOptions => {
  const N = 2 ** cost;
  // Node refuses to run when 128·N·r exceeds maxmem (32 MiB by default); leave room above it.
  return { N, r, p, maxmem: 128 * N * r * p + 32 * 1024 * 1024 };
};

const derive = (password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, scryptOptions(params), (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });

const busy = (): Error => new AppError(CODES.tooManyAttempts, 'busy');

/** The process-wide cap on concurrent hashes. */
export const hashingSlots = new Semaphore({ limit: HASH_CONCURRENCY, maxWaitMs: HASH_MAX_WAIT_MS, maxQueued: HASH_MAX_QUEUED });

export interface PasswordHasher {
  readonly params: ScryptParams;
  /** `queue` is whose turn it is to wait in (the client's address key; one queue when left out). */
  hash(password: string, queue?: string): Promise<string>;
  /**
   * True when `password` matches `stored`. With `stored` undefined (unknown account) or unreadable it
   * does the same scrypt work against a dummy and answers false, so timing never tells them apart.
   */
  verify(password: string, stored: string | undefined, queue?: string): Promise<boolean>;
  /** True when `stored` was made with other parameters than the current ones. */
  needsRehash(stored: string): boolean;
}

export const createPasswordHasher = (cost: number, slots: Semaphore = hashingSlots): PasswordHasher => {
  const params: ScryptParams = { cost, r: SCRYPT_R, p: SCRYPT_P };
  const dummy: StoredHash = { ...params, salt: randomBytes(SALT_BYTES), hash: randomBytes(KEY_BYTES) };

  return {
    params,
    async hash(password, queue = '') {
      const salt = randomBytes(SALT_BYTES);
      const hash = await slots.run(queue, () => derive(password, salt, params, KEY_BYTES), busy);
      return formatHash({ ...params, salt, hash });
    },
    async verify(password, stored, queue = '') {
      const parsed = stored === undefined ? undefined : parseHash(stored);
      const target = parsed !== undefined && parsed.hash.length > 0 ? parsed : dummy;
      const key = await slots.run(queue, () => derive(password, target.salt, target, target.hash.length), busy);
      return timingSafeEqual(key, target.hash) && target !== dummy;
    },
    needsRehash(stored) {
      const parsed = parseHash(stored);
      return parsed === undefined || parsed.cost !== params.cost || parsed.r !== params.r || parsed.p !== params.p;
    },
  };
};

const ALPHABET = {
  lower: 'abcdefghijkmnopqrstuvwxyz',
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  digit: '23456789',
};

/** A random password that meets the password rule: 20 letters and digits (no look-alikes), ~115 bits. */
export const randomPassword = (length = 20): string => {
  const all = ALPHABET.lower + ALPHABET.upper + ALPHABET.digit;
  for (;;) {
    let password = '';
    for (let i = 0; i < length; i += 1) password += all[randomInt(all.length)];
    if (passwordProblem(password, { minLength: length }) === null) return password;
  }
};
