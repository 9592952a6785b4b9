import { describe, expect, it } from 'vitest';
import { isAcceptablePassword } from '../../src/domain/password';
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

  it('never runs more tasks than its limit; refuses work at once when the queue is full', async () => {
    const slots = new Semaphore(2, 3);
    const gates: (() => void)[] = [];
    let active = 0;
    let peak = 0;
    const task = () =>
      slots.run(
        async () => {
          active += 1;
          peak = Math.max(peak, active);
          await new Promise<void>((resolve) => gates.push(resolve));
          active -= 1;
        },
        () => new Error('full'),
      );
    const running = Array.from({ length: 5 }, task);
    await expect(task()).rejects.toThrow('full');
    while (gates.length > 0 || slots.running > 0) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(running);
    expect(peak).toBe(2);
    expect(slots.running).toBe(0);
  });

  it('generates random passwords that meet the password rule', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i += 1) {
      const password = randomPassword();
      expect(isAcceptablePassword(password)).toBe(true);
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
