import pino, { type LoggerOptions } from 'pino';
import type { BrokerLog } from '../../server/mqtt/config';

/** A pino logger whose lines stay in memory: `text()` as written (redaction checks), `entries()` parsed. */
export const capturedLog = (options: LoggerOptions) => {
  const lines: string[] = [];
  const logger = pino(options, { write: (line: string) => void lines.push(line) });
  return {
    logger,
    text: (): string => lines.join(''),
    entries: <Entry = Record<string, unknown>>(): Entry[] => lines.map((line) => JSON.parse(line) as Entry),
  };
};

/** A broker log that keeps nothing, for the specs that check what the broker does, not what it says. */
export const silentBrokerLog: BrokerLog = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
