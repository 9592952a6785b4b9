import type { AlarmTransition } from '../src/domain/alarms/record';
import type { WireRecord } from '../src/resources/model';
import type { MockCredential, MockCredentials } from './auth';
import type { MockCommands } from './deviceCommands';
import type { MockMessage } from './messages';
import type { MockCertificate, MockUserSettings } from './userSettings';
import type { BasicInfo } from '../src/domain/userSettings';

/**
 * Everything a mock server holds, as plain data: its tables, the sign-in accounts, the command log, the
 * alarms' transitions and the accounts' basic information and certificates. The unit tests' mocks start from a fresh one per server; the browser's keep
 * theirs across a reload (mocks/persist.ts).
 */
export interface MockState {
  tables: Map<string, WireRecord[]>;
  credentials: MockCredentials;
  commands: MockCommands;
  alarms: {
    history: Map<number, AlarmTransition[]>;
    /** Whether each alarm's condition still stands: it decides where unshelving leads. */
    condition: Map<number, boolean>;
  };
  /** Each account's basic information and certificates (the user settings' calls). */
  userSettings: MockUserSettings;
  /** Each account's message box, when given (none: empty); unset, each account's box is seeded when first read. */
  messages?: Map<string, MockMessage[]>;
  /** When the data was seeded: the data counts back from it. */
  seededAt: number;
  /**
   * Set when the data stays at the time it was seeded (the unit tests' fixed epoch): the workplace's
   * figures are taken then. Unset, they are taken now, as the data is dated from now.
   */
  frozen: boolean;
}

/** The time the mocks take as now: the seeded moment for frozen data, else the clock's. */
export const mockNow = (state: Pick<MockState, 'seededAt' | 'frozen'>): number => (state.frozen ? state.seededAt : Date.now());

interface StoredState {
  tables: [string, WireRecord[]][];
  credentials: [string, MockCredential][];
  commands: MockCommands;
  alarms: { history: [number, AlarmTransition[]][]; condition: [number, boolean][] };
  userSettings: { profiles: [string, BasicInfo][]; certificates: [string, MockCertificate[]][] };
  seededAt: number;
  frozen: boolean;
}

export const storedState = (state: MockState): StoredState => ({
  tables: [...state.tables],
  credentials: [...state.credentials],
  commands: state.commands,
  alarms: { history: [...state.alarms.history], condition: [...state.alarms.condition] },
  userSettings: { profiles: [...state.userSettings.profiles], certificates: [...state.userSettings.certificates] },
  seededAt: state.seededAt,
  frozen: state.frozen,
});

export const restoredState = (stored: StoredState): MockState => ({
  tables: new Map(stored.tables),
  credentials: new Map(stored.credentials),
  commands: stored.commands,
  alarms: { history: new Map(stored.alarms.history), condition: new Map(stored.alarms.condition) },
  userSettings: { profiles: new Map(stored.userSettings.profiles), certificates: new Map(stored.userSettings.certificates) },
  seededAt: stored.seededAt,
  frozen: stored.frozen,
});
