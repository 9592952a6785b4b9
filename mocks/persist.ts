import { restoreSessions, sessionEntries } from './auth';
import { demoState } from './demo';
import { restoredState, storedState, type MockState } from './state';

/** Where the browser's mocks keep their data and sessions (localStorage; docs/messages.md, "Mock mode"). */
export const MOCK_STORAGE_KEYS = { state: 'oxygen-mock:state', sessions: 'oxygen-mock:sessions' } as const;
/** A page opened with `?mockReset` starts from freshly seeded data, signed out. */
export const MOCK_RESET_PARAM = 'mockReset';

/** Bumped when the kept shape changes: older data is seeded afresh rather than misread (2: the user settings). */
const VERSION = 2;
/** Data seeded longer ago than this is seeded again: the demo's data is dated from the day it was seeded. */
const KEPT_MS = 24 * 3_600_000;

const read = (storage: Storage, key: string): unknown => {
  try {
    return JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
};

/**
 * The mocks' data as this browser left it (what the console changed in it: accounts, devices, bookings,
 * commands, alarms, each account's basic information and certificates), and its sessions, so a reload goes on signed in; the demo's freshly seeded data when
 * there is none, it is from another version or older than a day.
 */
export const loadMockState = (storage: Storage, now: number): MockState => {
  const kept = read(storage, MOCK_STORAGE_KEYS.state) as { version?: number; state?: Parameters<typeof restoredState>[0] } | null;
  const sessions = read(storage, MOCK_STORAGE_KEYS.sessions);
  if (Array.isArray(sessions)) restoreSessions(sessions as Parameters<typeof restoreSessions>[0]);
  if (kept?.version === VERSION && kept.state !== undefined && now - kept.state.seededAt < KEPT_MS) {
    try {
      return restoredState(kept.state);
    } catch {
      // Kept data that cannot be read is seeded afresh below.
    }
  }
  return demoState(now);
};

/** Keeps the mocks' data and sessions: called after every answer the mocks give. */
export const saveMockState = (storage: Storage, state: MockState): void => {
  storage.setItem(MOCK_STORAGE_KEYS.state, JSON.stringify({ version: VERSION, state: storedState(state) }));
  storage.setItem(MOCK_STORAGE_KEYS.sessions, JSON.stringify(sessionEntries()));
};

/** Forgets the kept data and sessions. */
export const resetMockState = (storage: Storage): void => {
  for (const key of Object.values(MOCK_STORAGE_KEYS)) storage.removeItem(key);
};
