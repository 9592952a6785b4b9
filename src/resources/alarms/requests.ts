import { z } from 'zod';
import { DEFAULT_SHELVE_MAX_MINUTES, type AlarmState } from '../../domain/alarms/rules';
import { nextAlarmState } from '../../domain/alarms/states';
import type { Action } from '../../domain/policy';

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
const ALARM_TEXT_MAX = 500;
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

/** The most any server lets an operator shelve for (ALARM_SHELVE_MAX_MINUTES may be set up to a day). */
export const SHELVE_MINUTES_LIMIT = 24 * 60;

/** The operator's actions, in the order the console offers them. */
export const ALARM_ACTIONS = ['ack', 'shelve', 'unshelve', 'close'] as const satisfies readonly AlarmAction[];

/** The policy's action each needs (src/domain/policy.ts): unshelving is the shelver's right, closing out of service is `clear`. */
export const ALARM_ACTION_RIGHTS = { ack: 'acknowledge', shelve: 'shelve', unshelve: 'shelve', close: 'clear' } as const satisfies Record<
  AlarmAction,
  Action
>;

/**
 * The actions offered on an alarm in `state` to a role that `may` exercise a right: those its state allows
 * (nextAlarmState; whether the condition stands only decides where an action leads, not whether it applies).
 */
export const offeredAlarmActions = (state: AlarmState, may: (right: Action) => boolean): AlarmAction[] =>
  ALARM_ACTIONS.filter((action) => may(ALARM_ACTION_RIGHTS[action]) && nextAlarmState(state, action, { condition: true, suppressed: false }) !== undefined);
