import { z } from 'zod';
import type { MessageKind, MessageType } from '../../src/domain/messages';
import { COMMAND_TYPES } from '../../src/domain/mqtt/payloads';
import type { FinalCommandStatus } from '../../src/resources/devices/requests';
import type { Locale } from '../../src/domain/locales';
import { translate } from '../http/messages';

/**
 * What makes a message (docs/messages.md): each kind's box (message, notice or todo), the parameters
 * stored with it, and how its title, subtitle and content read in a language. A message is stored as its
 * kind and parameters and rendered when listed, so each reader gets their own language.
 *
 * Alarms add their kinds here when they exist: a raised alarm in the account's scope as a notice, and a
 * high or medium alarm awaiting acknowledgement as a todo that the alarm service marks read when it is
 * acknowledged; each kind also joins MessageKind in src/domain/messages.ts. Approvals follow the same way.
 */

const FINAL_STATUSES = ['acked', 'refused', 'timeout'] as const satisfies readonly FinalCommandStatus[];

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
} satisfies Record<MessageKind, z.ZodType>;

type ParamsOf<K extends MessageKind> = z.infer<(typeof PARAMS)[K]>;

/** A message to make for `account` (its id). */
export type MessageDraft = { [K in MessageKind]: { account: number; kind: K; params: ParamsOf<K> } }[MessageKind];

export const MESSAGE_TYPE_OF: Record<MessageKind, MessageType> = {
  commandOutcome: 'message',
  passwordReset: 'message',
  deviceAssignment: 'message',
};

interface RenderedMessage {
  title: string;
  subTitle: string;
  content: string;
}

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
};

/** A stored message's texts in `language`; its parameters are checked against its kind's schema first. */
export const renderMessage = (language: Locale, kind: MessageKind, params: unknown): RenderedMessage =>
  (RENDER[kind] as (language: Locale, params: unknown) => RenderedMessage)(language, PARAMS[kind].parse(params));
