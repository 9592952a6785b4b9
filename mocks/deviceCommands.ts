import { http } from 'msw';
import { commandSchema, type Command } from '../src/domain/mqtt/payloads';
import { DEVICE_COMMANDS_PATH, deviceCommandsConfig } from '../src/resources/devices/commandLog';
import type { DeviceCommandRecord } from '../src/resources/devices/requests';
import type { WireRecord } from '../src/resources/model';
import type { AccessCheck } from './access';
import { restResourceHandlers } from './rest';
import type { MockScope } from './scope';

/** A mocked chamber answers an acknowledged or refused command this long after it was sent. */
export const MOCK_ACK_MS = 1000;
/** The server's default COMMAND_TIMEOUT_SECONDS: a command unanswered this long has timed out. */
export const MOCK_TIMEOUT_MS = 10_000;

/**
 * How the mocked chambers answer commands: the share acknowledged and the share refused, each 0 to 1;
 * the rest time out. The old console's mocked chambers agreed to everything.
 */
export interface ChamberRates {
  ack: number;
  refuse: number;
}
export const OLD_CONSOLE_CHAMBERS: ChamberRates = { ack: 1, refuse: 0 };

/** The names of the rates in the URL's query (`?mockAck=0.5&mockRefuse=0.2`) and in localStorage (docs/messages.md, "Mock mode"). */
const CHAMBER_RATE_NAMES = { ack: 'mockAck', refuse: 'mockRefuse' } as const;

/**
 * The rates `read` names (the URL's, else localStorage's), each a share from 0 to 1; one that is missing or
 * not a share keeps the old console's, and refusals take at most what acknowledgements leave.
 */
export const chamberRatesFrom = (read: (name: string) => string | null | undefined): ChamberRates => {
  const share = (name: string, fallback: number) => {
    const raw = read(name);
    const value = raw === null || raw === undefined || raw.trim() === '' ? Number.NaN : Number(raw);
    return value >= 0 && value <= 1 ? value : fallback;
  };
  const ack = share(CHAMBER_RATE_NAMES.ack, OLD_CONSOLE_CHAMBERS.ack);
  return { ack, refuse: Math.min(1 - ack, share(CHAMBER_RATE_NAMES.refuse, OLD_CONSOLE_CHAMBERS.refuse)) };
};

/** What a mocked chamber will do with a command: its status and after how long. */
interface Fate {
  status: 'acked' | 'refused' | 'timeout';
  afterMs: number;
}

const fateOf = (rates: ChamberRates, draw: number): Fate => {
  if (draw < rates.ack) return { status: 'acked', afterMs: MOCK_ACK_MS };
  if (draw < rates.ack + rates.refuse) return { status: 'refused', afterMs: MOCK_ACK_MS };
  return { status: 'timeout', afterMs: MOCK_TIMEOUT_MS };
};

type Unsent<C> = C extends unknown ? Omit<C, 'cmdId' | 'Time'> : never;
/** A command as a device call asks for it; the id and the time are the log's. */
export type CommandBody = Unsent<Command>;

/** The commands the mocks have sent to their (imaginary) chambers, newest first, as DeviceCommandRecord. */
export interface CommandLog {
  /** Records the command as 'sent' by `actor` now, and answers its cmdId. */
  issue: (deviceId: string, body: CommandBody, actor: string | null) => string;
  readonly records: WireRecord[];
  /** Brings the statuses up to now: each command's answer is due when its chamber would give it. */
  settle: () => void;
}

/**
 * The mocks' commands as plain data (kept in the mock state, mocks/state.ts): the log, newest first, and
 * what each command's chamber will answer, kept beside it since a record shows only what happened so far.
 */
export interface MockCommands {
  records: WireRecord[];
  fates: Record<string, Fate>;
}

export const noCommands = (): MockCommands => ({ records: [], fates: {} });

/**
 * Mocked chambers answering at `rates`: each command is 'sent', then acknowledged or refused MOCK_ACK_MS
 * later, or timed out after MOCK_TIMEOUT_MS. The status is worked out when the log is read (`settle`)
 * rather than by a timer, so no timer outlives a test and a test moves time with a faked Date.
 */
export const commandLog = (
  { records, fates }: MockCommands = noCommands(),
  rates: ChamberRates = OLD_CONSOLE_CHAMBERS,
  random: () => number = Math.random,
): CommandLog => ({
  records,
  issue: (deviceId, body, actor) => {
    const issuedAt = Date.now();
    // The server's cmdId is 16 characters of base64url; 16 hex digits keep to the same pattern.
    const command = commandSchema.parse({ ...body, cmdId: crypto.randomUUID().replace(/-/g, '').slice(0, 16), Time: issuedAt });
    records.unshift({
      id: command.cmdId,
      Id: deviceId,
      type: command.type,
      status: 'sent',
      error: null,
      actor,
      issuedAt,
      answeredAt: null,
      command,
    } satisfies DeviceCommandRecord);
    fates[command.cmdId] = fateOf(rates, random());
    return command.cmdId;
  },
  settle: () => {
    const now = Date.now();
    for (const record of records) {
      const fate = fates[String(record.id)];
      if (record.status !== 'sent' || fate === undefined || Number(record.issuedAt) + fate.afterMs > now) continue;
      Object.assign(record, {
        status: fate.status,
        answeredAt: Number(record.issuedAt) + fate.afterMs,
        error: fate.status === 'refused' ? 'refused by the mocked chamber' : null,
      });
    }
  },
});

/**
 * `GET <restBase>/device-commands` and `/:cmdId` (docs/commands.md) over the log, in ra-data-simple-rest's
 * shape (mocks/rest.ts: Content-Range, 404 for an unknown id), read-only like the server's: the commands of
 * the devices the caller sees, whoever issued them.
 */
export const deviceCommandHandlers = (restBase: string, log: CommandLog, check: AccessCheck, scope: MockScope) => [
  // Answers nothing: brings the statuses up to now, then msw goes on to the REST handlers below.
  http.get(`${restBase}/${DEVICE_COMMANDS_PATH}*`, () => log.settle()),
  ...restResourceHandlers(restBase, deviceCommandsConfig, log.records, check, scope).filter((handler) => handler.info.method === 'GET'),
];
