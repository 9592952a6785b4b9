import { http } from 'msw';
import { commandSchema, type Command } from '../src/domain/mqtt/payloads';
import { DEVICE_COMMANDS_PATH, deviceCommandsConfig } from '../src/resources/devices/commandLog';
import type { DeviceCommandRecord } from '../src/resources/devices/requests';
import type { WireRecord } from '../src/resources/model';
import type { AccessCheck } from './access';
import { restResourceHandlers } from './rest';
import type { MockScope } from './scope';

/** The mocked chamber confirms every command this long after it was sent (the server waits up to 10 s for a real one). */
export const MOCK_ACK_MS = 1000;

type Unsent<C> = C extends unknown ? Omit<C, 'cmdId' | 'Time'> : never;
/** A command as a device call asks for it; the id and the time are the log's. */
export type CommandBody = Unsent<Command>;

/** The commands the mocks have sent to their (imaginary) chambers, newest first, as DeviceCommandRecord. */
export interface CommandLog {
  /** Records the command as 'sent' by `actor` now, and answers its cmdId. */
  issue: (deviceId: string, body: CommandBody, actor: string | null) => string;
  readonly records: WireRecord[];
  /** Brings the statuses up to now: a command still 'sent' MOCK_ACK_MS after it was issued is 'acked'. */
  settle: () => void;
}

/**
 * A chamber that always agrees: each command is 'sent', then 'acked' MOCK_ACK_MS later. The status is
 * worked out when the log is read (`settle`) rather than by a timer, so no timer outlives a test and a
 * test moves time with a faked Date.
 */
export const commandLog = (): CommandLog => {
  const records: WireRecord[] = [];
  return {
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
      return command.cmdId;
    },
    settle: () => {
      const due = Date.now() - MOCK_ACK_MS;
      for (const record of records) {
        if (record.status === 'sent' && Number(record.issuedAt) <= due) {
          Object.assign(record, { status: 'acked', answeredAt: Number(record.issuedAt) + MOCK_ACK_MS });
        }
      }
    },
  };
};

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
