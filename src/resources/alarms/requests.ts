import { z } from 'zod';
import { DEFAULT_SHELVE_MAX_MINUTES } from '../../domain/alarms/rules';

/**
 * An operator's actions on an alarm (docs/alarms.md, "REST"), shared by the console, the msw mocks and
 * the server:
 *   POST /api/v1/alarms/:id/ack       { comment? }        → the alarm after
 *   POST /api/v1/alarms/:id/shelve    { minutes, reason }
 *   POST /api/v1/alarms/:id/unshelve  {}
 *   POST /api/v1/alarms/:id/close     { reason }          out of service
 *   GET  /api/v1/alarms/:id/history   → its transitions, oldest first
 */
export const ALARMS_PATH = 'alarms';

/** A comment or a reason: what the next shift reads in the alarm's history. */
export const ALARM_TEXT_MAX = 500;
const text = z.string().trim().min(1).max(ALARM_TEXT_MAX);

/** The bodies of each action; shelving is capped by ALARM_SHELVE_MAX_MINUTES, the server's to configure. */
export const alarmActionBodies = (shelveMaxMinutes = DEFAULT_SHELVE_MAX_MINUTES) => ({
  ack: z.strictObject({ comment: text.optional() }),
  shelve: z.strictObject({ minutes: z.number().int().min(1).max(shelveMaxMinutes), reason: text }),
  unshelve: z.strictObject({}),
  close: z.strictObject({ reason: text }),
});

type Bodies = ReturnType<typeof alarmActionBodies>;
export type AlarmAction = keyof Bodies;
export type AlarmActionBody<A extends AlarmAction> = z.infer<Bodies[A]>;
