import type { Socket } from 'node:net';
import type { Client } from 'aedes';
import { addressKey } from '../../auth/throttle';
import type { BrokerLimits } from '../../config';
import { HOUR_MS, MINUTE_MS } from '../../../src/domain/time';

/**
 * What one client address may cost the broker (docs/mqtt.md, "Limits"), kept in memory: one embedded
 * broker serves one server process, and a restart forgets nothing an attacker could not redo at once.
 *   - new connections per address: a bucket of `connectsPerAddressPerMinute` tokens, refilled evenly over a
 *     minute; a connection that finds it empty is closed before a byte of it is read (before the TLS
 *     handshake too);
 *   - refused sign-ins per address and username: at `loginFailuresPerHour` in the last hour that pair is
 *     refused without checking its password until its oldest failure is an hour old, as the console's
 *     sign-in throttling does (server/auth/throttle.ts); another device from that address, or this
 *     device from another address, is not slowed. A sign-in that succeeds forgets the pair's failures.
 * Addresses are keyed as the console keys them (an IPv6 address by its /64).
 */

/** Past this many tracked addresses (or pairs), those whose record no longer matters are dropped. */
const PRUNE_ABOVE = 10_000;

export interface ClientLimits {
  /** A new socket: false when its address has opened too many connections lately (the caller closes it). */
  acceptSocket(socket: Socket): boolean;
  /** Keeps the address of an accepted client, for the sign-in throttling. */
  remember(client: Client, socket: Socket): void;
  /** False when this client's address and username have failed too often in the last hour. */
  signInAllowed(client: Client, username: string): boolean;
  signInFailed(client: Client, username: string): void;
  signInSucceeded(client: Client, username: string): void;
}

/** Drops entries `stale` says no longer matter, once the map has grown past PRUNE_ABOVE; then the oldest, if still too many. */
const prune = <V>(map: Map<string, V>, stale: (value: V) => boolean): void => {
  if (map.size <= PRUNE_ABOVE) return;
  for (const [key, value] of map) if (stale(value)) map.delete(key);
  for (const key of map.keys()) {
    if (map.size <= PRUNE_ABOVE) break;
    map.delete(key);
  }
};

export const createClientLimits = (limits: BrokerLimits, now: () => number = Date.now): ClientLimits => {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const failures = new Map<string, number[]>();
  const addresses = new WeakMap<Client, string>();
  const perMs = limits.connectsPerAddressPerMinute / MINUTE_MS;

  const pairOf = (client: Client, username: string): string => `${addresses.get(client) ?? 'unknown'} ${username}`;
  const recent = (times: number[], at: number): number[] => times.filter((time) => time > at - HOUR_MS);

  return {
    acceptSocket(socket) {
      const key = addressKey(socket.remoteAddress ?? 'unknown');
      const at = now();
      const bucket = buckets.get(key) ?? { tokens: limits.connectsPerAddressPerMinute, at };
      bucket.tokens = Math.min(limits.connectsPerAddressPerMinute, bucket.tokens + (at - bucket.at) * perMs);
      bucket.at = at;
      // Refreshed entries go last, so pruning drops the least recently seen first.
      buckets.delete(key);
      buckets.set(key, bucket);
      prune(buckets, (value) => at - value.at >= MINUTE_MS);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
    remember(client, socket) {
      addresses.set(client, addressKey(socket.remoteAddress ?? 'unknown'));
    },
    signInAllowed(client, username) {
      const times = failures.get(pairOf(client, username));
      return times === undefined || recent(times, now()).length < limits.loginFailuresPerHour;
    },
    signInFailed(client, username) {
      const pair = pairOf(client, username);
      const at = now();
      const times = recent(failures.get(pair) ?? [], at);
      times.push(at);
      failures.delete(pair);
      failures.set(pair, times.slice(-limits.loginFailuresPerHour));
      prune(failures, (value) => recent(value, at).length === 0);
    },
    signInSucceeded(client, username) {
      failures.delete(pairOf(client, username));
    },
  };
};
