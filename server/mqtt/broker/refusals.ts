import { REFUSAL_REASONS, type BrokerCounters, type BrokerLog, type RefusalReason } from '../config';

/** Who a client is to the broker once it has authenticated: the server's own client, or a device. */
export type Identity = { kind: 'server' } | { kind: 'device'; deviceId: string };

/** Printable ASCII, at most 80 characters: a client-chosen string made safe for a log line. */
export const printable = (value: unknown): string => (typeof value === 'string' ? value.replace(/[^\x20-\x7e]/g, '?').slice(0, 80) : String(value));

/** The device Id, `server`, or null (not authenticated): the `deviceId` of a refusal's log line. */
export const who = (identity: Identity | undefined): string | null => (identity?.kind === 'device' ? identity.deviceId : (identity?.kind ?? null));

/** Logs a refusal (warn; never a password or a payload) and counts it by reason. */
export type Refuse = (reason: RefusalReason, fields: Record<string, unknown>, message: string) => void;

export const createRefusals = (log: BrokerLog): { counters: BrokerCounters; refuse: Refuse } => {
  const counters = Object.fromEntries(REFUSAL_REASONS.map((reason) => [reason, 0])) as BrokerCounters;
  const refuse: Refuse = (reason, fields, message) => {
    counters[reason] += 1;
    log.warn({ reason, ...fields }, message);
  };
  return { counters, refuse };
};
