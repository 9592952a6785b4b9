import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PASSWORD_MIN_LENGTH, passwordProblem } from '../../src/domain/password';
import {
  createPasswordHasher,
  HASH_CONCURRENCY,
  hashingSlots,
  parseHash,
  randomPassword,
} from '../../server/auth/passwords';
import { Semaphore } from '../../server/auth/semaphore';
import { addressKey } from '../../server/auth/throttle';
import { bearerToken, hashToken, newToken } from '../../server/auth/tokens';
import { loadConfig } from '../../server/config';

describe('password hashing', () => {
  it('hashes with the default configuration at N=2^17, r=8, p=1, 16-byte salt, 64-byte key', async () => {
    const hasher = createPasswordHasher(loadConfig({}).scryptCost);
    const stored = await hasher.hash('Admin2026'); // the one hash at full cost
    expect(stored).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    const parsed = parseHash(stored);
    expect(parsed).toMatchObject({ cost: 17, r: 8, p: 1 });
    expect(parsed?.salt).toHaveLength(16);
    expect(parsed?.hash).toHaveLength(64);
  });

  it('verifies the right password only, with a fresh salt each time', async () => {
    const hasher = createPasswordHasher(10);
    const a = await hasher.hash('Secret2026');
    const b = await hasher.hash('Secret2026');
    expect(a).not.toBe(b);
    expect(await hasher.verify('Secret2026', a)).toBe(true);
    expect(await hasher.verify('Secret2027', a)).toBe(false);
    expect(await hasher.verify('Secret2026', undefined)).toBe(false);
    expect(await hasher.verify('Secret2026', 'not a hash')).toBe(false);
  });

  it('verifies hashes made at another cost, and says they need a rehash', async () => {
    const old = await createPasswordHasher(10).hash('Secret2026');
    const current = createPasswordHasher(11);
    expect(await current.verify('Secret2026', old)).toBe(true);
    expect(current.needsRehash(old)).toBe(true);
    expect(current.needsRehash(await current.hash('Secret2026'))).toBe(false);
  });

  it('runs at most two hashes at once in the process, however many sign-ins arrive', async () => {
    expect(HASH_CONCURRENCY).toBe(2);
    expect(hashingSlots.limit).toBe(2);
    const hasher = createPasswordHasher(12);
    const seen: number[] = [];
    const burst = Array.from({ length: 8 }, (_, i) => hasher.hash(`Burst${i}Aa`));
    seen.push(hashingSlots.running, hashingSlots.queued);
    await Promise.all(burst);
    expect(seen).toEqual([2, 6]);
    expect(hashingSlots.running).toBe(0);
  });

  it('never runs more tasks than its limit; serves waiting addresses in turn; refuses only past its bounds', async () => {
    const slots = new Semaphore({ limit: 2, maxWaitMs: 60_000, maxQueued: 6 });
    const gates: (() => void)[] = [];
    const order: string[] = [];
    let active = 0;
    let peak = 0;
    const task = (key: string, name: string) =>
      slots.run(
        key,
        async () => {
          order.push(name);
          active += 1;
          peak = Math.max(peak, active);
          await new Promise<void>((resolve) => gates.push(resolve));
          active -= 1;
        },
        () => new Error('busy'),
      );
    // Two running, then a burst of five from one address, then one from another address.
    const running = [task('burst', 'b0'), task('burst', 'b1')];
    for (let i = 2; i < 7; i += 1) running.push(task('burst', `b${i}`));
    running.push(task('owner', 'owner'));
    await expect(task('late', 'late')).rejects.toThrow('busy');
    while (gates.length > 0 || slots.running > 0) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(running);
    expect(peak).toBe(2);
    expect(slots.running).toBe(0);
    // The other address's task ran after one task of the burst, not after all five.
    expect(order.slice(0, 4)).toEqual(['b0', 'b1', 'b2', 'owner']);
  });

  it('refuses a task that waited longer than its bound, and lets the rest go on', async () => {
    vi.useFakeTimers();
    try {
      const slots = new Semaphore({ limit: 1, maxWaitMs: 1000, maxQueued: 10 });
      let release = (): void => undefined;
      const first = slots.run('a', () => new Promise<void>((resolve) => (release = resolve)), () => new Error('busy'));
      const waiting = slots.run('b', async () => 'ran', () => new Error('busy'));
      const refused = expect(waiting).rejects.toThrow('busy');
      await vi.advanceTimersByTimeAsync(1001);
      await refused;
      expect(slots.queued).toBe(0);
      release();
      await first;
      expect(await slots.run('c', async () => 'ran', () => new Error('busy'))).toBe('ran');
      expect(slots.running).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('generates random passwords that meet the password rule', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i += 1) {
      const password = randomPassword();
      expect(passwordProblem(password, { minLength: DEFAULT_PASSWORD_MIN_LENGTH })).toBeNull();
      seen.add(password);
    }
    expect(seen.size).toBe(50);
  });
});

describe('tokens and addresses', () => {
  it('makes 32-byte base64url tokens and stores their sha256', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(bearerToken(`Bearer ${token}`)).toBe(token);
    expect(bearerToken(`bearer ${token}`)).toBe(token);
    expect(bearerToken(token)).toBeUndefined();
    expect(bearerToken('Bearer short')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });

  it('keys addresses: IPv4 as is, IPv4-mapped unwrapped, IPv6 by /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
