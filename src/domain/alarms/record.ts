import { z } from 'zod';
import { ALARM_KINDS, ALARM_PRIORITIES, ALARM_STATES } from './rules';

/**
 * An alarm as `GET /api/v1/alarms` answers it and as the live stream's `alarm` event carries it
 * (docs/alarms.md, "REST"). Times are epoch milliseconds; `value` and `threshold` are the reading and the
 * limit it crossed when raised or last escalated (null for the event rules, lost telemetry and the emergency).
 */
export const alarmRecordSchema = z.strictObject({
  id: z.number().int(),
  deviceId: z.string(),
  kind: z.enum(ALARM_KINDS),
  priority: z.enum(ALARM_PRIORITIES),
  state: z.enum(ALARM_STATES),
  value: z.number().nullable(),
  threshold: z.number().nullable(),
  raisedAt: z.number(),
  ackedAt: z.number().nullable(),
  ackedBy: z.string().nullable(),
  closedAt: z.number().nullable(),
  shelvedUntil: z.number().nullable(),
  comment: z.string().nullable(),
});
export type AlarmRecord = z.infer<typeof alarmRecordSchema>;

/** One transition as `GET /api/v1/alarms/{id}/history` answers it: who (`system` for the server), when, why. */
export interface AlarmTransition {
  id: number;
  at: number;
  from: string | null;
  to: string;
  actor: string;
  comment: string | null;
}
