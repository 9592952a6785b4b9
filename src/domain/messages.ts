import { z } from 'zod';

/**
 * The message box's contract (docs/messages.md), shared by the console, the msw mocks and the server.
 * A message belongs to one account; the server makes it (a command's outcome, a password reset, a device
 * assignment, an alarm in its scope) and renders its title and content in the reader's language when it is
 * listed.
 */

/** The calls, relative to the upstream's base (API_PREFIX). */
export const MESSAGE_CALLS = { list: '/api/message/list', read: '/api/message/read' } as const;

export const MESSAGE_TYPES = ['message', 'notice', 'todo'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/**
 * What made a message; the console picks its icon by it. The alarm kinds: a notice when an alarm in the
 * account's scope is raised or escalates to high, and a todo while a high or medium one waits for
 * acknowledgement, read by the server once it is acknowledged, shelved, suppressed or closed.
 */
export type MessageKind =
  | 'commandOutcome'
  | 'passwordReset'
  | 'deviceAssignment'
  | 'alarmRaised'
  | 'alarmEscalated'
  | 'alarmAwaitingAck'
  | 'settingRequestAwaiting'
  | 'settingRequestDecided'
  | 'certificateAwaiting';

export const MESSAGE_UNREAD = 0;
export const MESSAGE_READ = 1;
type MessageStatus = typeof MESSAGE_UNREAD | typeof MESSAGE_READ;

/** One page of the box holds at most this many messages. */
const MAX_MESSAGE_PAGE_SIZE = 100;
/** One read call marks at most this many. */
const MAX_READ_IDS = 500;

/** A message as `POST {API_PREFIX}/api/message/list` answers it. */
export interface Message {
  id: number;
  type: MessageType;
  title: string;
  subTitle: string;
  /** A picture's URL; empty for the server's own messages, which the console shows with the kind's icon. */
  avatar: string;
  content: string;
  /** Epoch milliseconds. */
  time: number;
  messageType: MessageKind;
  status: MessageStatus;
  /** The alarm an alarm kind's message is about: the console links to it. */
  alarm?: MessageAlarm;
}

export interface MessageAlarm {
  id: number;
  deviceId: string;
}

const messageStatusSchema = z.union([z.literal(MESSAGE_UNREAD), z.literal(MESSAGE_READ)]);

/** `POST {API_PREFIX}/api/message/list`: paged like the other upstream lists, newest first. */
export const messageListBodySchema = z.strictObject({
  current: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(MAX_MESSAGE_PAGE_SIZE).default(10),
  filter: z
    .strictObject({
      type: z.enum(MESSAGE_TYPES).optional(),
      status: messageStatusSchema.optional(),
    })
    .optional(),
});
export type MessageListBody = z.input<typeof messageListBodySchema>;

/** Unread messages of the caller per type, whatever the filter: the box's badge and tabs. */
export type UnreadCounts = Record<MessageType, number>;

export interface MessageListAnswer {
  list: Message[];
  total: number;
  unread: UnreadCounts;
}

/**
 * `POST {API_PREFIX}/api/message/read`: marks the caller's messages among `ids` read. Ids of other accounts'
 * messages are ignored exactly like ids that do not exist.
 */
export const messageReadBodySchema = z.strictObject({
  ids: z.array(z.number().int().min(1)).min(1).max(MAX_READ_IDS),
});
export type MessageReadBody = z.infer<typeof messageReadBodySchema>;

export interface MessageReadAnswer {
  /** How many of the caller's unread messages became read. */
  read: number;
  unread: UnreadCounts;
}

export const noUnread = (): UnreadCounts => ({ message: 0, notice: 0, todo: 0 });
