import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import { storeErrorCode } from './errors';
import type { DB } from './schema';

/**
 * PostgreSQL's answers to a transaction that lost a race with another and changed nothing: deadlock
 * detected and serialization failure. Running it again is what PostgreSQL's manual prescribes.
 */
const LOST_RACE = new Set(['40P01', '40001']);

/** Attempts in all; a fourth lost race in a row is reported, not hidden. */
const TRANSACT_ATTEMPTS = 4;

const lostRace = (error: unknown): boolean => LOST_RACE.has(storeErrorCode(error) ?? '');

/**
 * `work` in one transaction, run again from its start when PostgreSQL chose it as a deadlock's victim.
 * Needed where a transaction changes several rows of tables whose summary triggers (server/db/statsSummaries.ts)
 * upsert shared counters: a session start and an expiry sweep lock the same day's counters in different
 * orders. `work` must keep what it collects inside itself, since a lost attempt's effects are rolled back
 * and its results dropped. SQLite never answers so (one writer at a time), so there it runs once.
 */
export const transact = async <T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= TRANSACT_ATTEMPTS || !lostRace(error)) throw error;
      // Apart by a few random milliseconds, so the two that met do not meet again in step.
      await sleep(attempt * (5 + Math.random() * 20));
    }
  }
};
