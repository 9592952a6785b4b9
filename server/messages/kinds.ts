import { z } from 'zod';
import { ALARM_KINDS, ALARM_PRIORITIES } from '../../src/domain/alarms/rules';
import type { MessageAlarm, MessageKind, MessageType } from '../../src/domain/messages';
import { COMMAND_TYPES } from '../../src/domain/commands';
import type { FinalCommandStatus } from '../../src/resources/devices/requests';
import type { Locale } from '../../src/domain/locales';
import { ALARM_KIND_LABELS } from '../../src/resources/alarms/config';
import { translate } from '../http/messages';

/**
 * What makes a message (docs/messages.md): each kind's box (message, notice or todo), the parameters
 * stored with it, and how its title, subtitle and content read in a language. A message is stored as its
 * kind and parameters and rendered when listed, so each reader gets their own language.
 *
 * A new kind is added here and to MessageKind in src/domain/messages.ts; the alarms' kinds are made by
 * ./alarms.ts, the parameter approval's by server/setting-requests/, the certificates' by server/userSettings/;
 * a settings request's and a certificate's todos are resolved (or replaced) by ./todos.ts.
 */

const FINAL_STATUSES = ['acked', 'refused', 'timeout'] as const satisfies readonly FinalCommandStatus[];

/** An alarm as its messages tell it: as it stood when the message was made (a todo's priority follows it). */
const alarmParams = z.strictObject({
  alarm: z.number().int(),
  device: z.string(),
  kind: z.enum(ALARM_KINDS),
  priority: z.enum(ALARM_PRIORITIES),
  value: z.number().nullable(),
  threshold: z.number().nullable(),
});
export type AlarmParams = z.infer<typeof alarmParams>;

const PARAMS = {
  /** What became of a command the account issued. */
  commandOutcome: z.strictObject({
    device: z.string(),
    command: z.enum(COMMAND_TYPES),
    status: z.enum(FINAL_STATUSES),
    error: z.string().optional(),
  }),
  /** An administrator (`by`) reset the account's password. */
  passwordReset: z.strictObject({ by: z.string() }),
  /** The devices the account manages changed: `by` gave it `added` and took `removed`. */
  deviceAssignment: z.strictObject({ by: z.string(), added: z.array(z.string()), removed: z.array(z.string()) }),
  /** An alarm of a device in the account's scope was raised (or came back from shelving or suppression). */
  alarmRaised: alarmParams,
  /** An open alarm of a device in the account's scope became high priority. */
  alarmEscalated: alarmParams,
  /** A high or medium alarm waits for acknowledgement; read by the server once it no longer does. */
  alarmAwaitingAck: alarmParams,
  /** A settings request waits for the account's decision; read by the server once it is decided or cancelled. */
  settingRequestAwaiting: z.strictObject({ request: z.number().int(), device: z.string(), by: z.string(), settings: z.string() }),
  /** The account's settings request was approved or rejected by `by`. */
  settingRequestDecided: z.strictObject({ request: z.number().int(), device: z.string(), by: z.string(), decision: z.enum(['approved', 'rejected']) }),
  /** The operator certificate of `account` waits for the account's decision; read by the server once it is passed or refused. */
  certificateAwaiting: z.strictObject({ account: z.string(), number: z.string(), issuer: z.string(), expiresOn: z.string() }),
} satisfies Record<MessageKind, z.ZodType>;

type ParamsOf<K extends MessageKind> = z.infer<(typeof PARAMS)[K]>;

/**
 * A message to make for `account` (its id); an alarm's names it as `alarm`, a settings request's as
 * `settingRequest`, a certificate's as `certificate`, to be found by it.
 */
export type MessageDraft = {
  [K in MessageKind]: { account: number; kind: K; params: ParamsOf<K>; alarm?: number; settingRequest?: number; certificate?: number };
}[MessageKind];

export const MESSAGE_TYPE_OF: Record<MessageKind, MessageType> = {
  commandOutcome: 'message',
  passwordReset: 'message',
  deviceAssignment: 'message',
  alarmRaised: 'notice',
  alarmEscalated: 'notice',
  alarmAwaitingAck: 'todo',
  settingRequestAwaiting: 'todo',
  settingRequestDecided: 'message',
  certificateAwaiting: 'todo',
};

interface RenderedMessage {
  title: string;
  subTitle: string;
  content: string;
  alarm?: MessageAlarm;
}

/** At most two decimals: a reading as the chamber sent it, without a double's noise. */
const shown = (value: number): string => String(Math.round(value * 100) / 100);

/**
 * An alarm message's texts: its title (by key), the device as subtitle, and as content the alarm's number
 * with its value and limit, within the `content` key's sentence when it has one.
 */
const alarmMessage =
  (title: 'box.alarmRaised.title' | 'box.alarmEscalated.title' | 'box.alarmAwaitingAck.title', content?: 'box.alarmAwaitingAck.content') =>
  (language: Locale, { alarm, device, kind, priority, value, threshold }: AlarmParams): RenderedMessage => {
    const words = {
      alarm,
      device,
      kind: ALARM_KIND_LABELS[language][kind],
      priority: translate(language, `box.alarm.${priority}`),
      value: value === null ? '' : shown(value),
      threshold: threshold === null ? '' : shown(threshold),
    };
    const detail = translate(language, value === null ? 'box.alarm.detail' : threshold === null ? 'box.alarm.detail.value' : 'box.alarm.detail.limit', words);
    return {
      title: translate(language, title, words),
      subTitle: device,
      content: content === undefined ? detail : translate(language, content, { detail }),
      alarm: { id: alarm, deviceId: device },
    };
  };

const RENDER: { [K in MessageKind]: (language: Locale, params: ParamsOf<K>) => RenderedMessage } = {
  commandOutcome(language, { device, command, status, error }) {
    const words = { device, command: translate(language, `box.command.${command}`), error: error ?? '' };
    const content =
      status === 'refused' && error === undefined ? 'box.command.refused.noReason' : (`box.command.${status}.content` as const);
    return { title: translate(language, `box.command.${status}.title`, words), subTitle: device, content: translate(language, content, words) };
  },
  passwordReset: (language, { by }) => ({
    title: translate(language, 'box.passwordReset.title'),
    subTitle: translate(language, 'box.by', { by }),
    content: translate(language, 'box.passwordReset.content', { by }),
  }),
  deviceAssignment(language, { by, added, removed }) {
    const parts = [
      ...(added.length > 0 ? [translate(language, 'box.deviceAssignment.added', { devices: added.join(', ') })] : []),
      ...(removed.length > 0 ? [translate(language, 'box.deviceAssignment.removed', { devices: removed.join(', ') })] : []),
    ];
    return {
      title: translate(language, 'box.deviceAssignment.title'),
      subTitle: translate(language, 'box.by', { by }),
      content: parts.join(' '),
    };
  },
  alarmRaised: alarmMessage('box.alarmRaised.title'),
  alarmEscalated: alarmMessage('box.alarmEscalated.title'),
  alarmAwaitingAck: alarmMessage('box.alarmAwaitingAck.title', 'box.alarmAwaitingAck.content'),
  settingRequestAwaiting: (language, params) => ({
    title: translate(language, 'box.settingRequestAwaiting.title', params),
    subTitle: params.device,
    content: translate(language, 'box.settingRequestAwaiting.content', params),
  }),
  settingRequestDecided: (language, params) => ({
    title: translate(language, `box.settingRequestDecided.${params.decision}`, params),
    subTitle: params.device,
    content: translate(language, 'box.settingRequestDecided.content', params),
  }),
  certificateAwaiting: (language, params) => ({
    title: translate(language, 'box.certificateAwaiting.title', params),
    subTitle: params.account,
    content: translate(language, 'box.certificateAwaiting.content', params),
  }),
};

/** A stored message's texts in `language`; its parameters are checked against its kind's schema first. */
export const renderMessage = (language: Locale, kind: MessageKind, params: unknown): RenderedMessage =>
  (RENDER[kind] as (language: Locale, params: unknown) => RenderedMessage)(language, PARAMS[kind].parse(params));
