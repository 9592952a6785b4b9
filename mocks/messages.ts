import { http } from 'msw';
import { CODES } from '../src/domain/envelope';
import {
  MESSAGE_CALLS,
  MESSAGE_READ,
  MESSAGE_UNREAD,
  messageListBodySchema,
  messageReadBodySchema,
  noUnread,
  type Message,
  type MessageListAnswer,
  type MessageReadAnswer,
} from '../src/domain/messages';
import { badInputMessage, readJson, type AccessCheck } from './access';
import { mockAccountOf } from './auth';
import { fail, ok } from './envelope';
import type { WireRecord } from '../src/resources/model';
import { upstreamRefusal } from './upstream';

const MINUTE = 60_000;

type Texts = Pick<Message, 'title' | 'subTitle' | 'content'>;
export interface MockMessage extends Omit<Message, keyof Texts> {
  texts: Record<'zh-CN' | 'en-US', Texts>;
  /** What a todo waits on (a certificate's: `certificate:<id>`), to be found by it; never answered. */
  about?: string;
}

/** What the server would have made for a mock account: a few command outcomes and a device assignment, on the first devices. */
const seedBox = (seededAt: number, [one = 'Id-001', two = 'Id-002', three = 'Id-003']: readonly string[]): MockMessage[] => {
  const outcome = (id: number, device: string, minutesAgo: number, status: Message['status'], acked: boolean): MockMessage => ({
    id,
    type: 'message',
    avatar: '',
    time: seededAt - minutesAgo * MINUTE,
    messageType: 'commandOutcome',
    status,
    texts: {
      'zh-CN': acked
        ? { title: `指令已执行：${device} 状态变更`, subTitle: device, content: `${device} 已确认执行状态变更指令。` }
        : { title: `指令无应答：${device} 权限变更`, subTitle: device, content: `${device} 未在规定时间内应答权限变更指令，请检查舱体后再发送。` },
      'en-US': acked
        ? { title: `Command carried out: state change of ${device}`, subTitle: device, content: `${device} acknowledged the state change.` }
        : {
            title: `Command unanswered: permission change of ${device}`,
            subTitle: device,
            content: `${device} did not answer the permission change in time; check the chamber before sending it again.`,
          },
    },
  });
  return [
    outcome(1, one, 5, MESSAGE_UNREAD, true),
    outcome(2, two, 30, MESSAGE_UNREAD, false),
    outcome(3, three, 240, MESSAGE_READ, true),
    {
      id: 4,
      type: 'message',
      avatar: '',
      time: seededAt - 26 * 60 * MINUTE,
      messageType: 'deviceAssignment',
      status: MESSAGE_READ,
      texts: {
        'zh-CN': { title: '您管理的设备有变动', subTitle: '操作人：admin', content: `新分配给您：${one}, ${two}。` },
        'en-US': { title: 'Your devices changed', subTitle: 'by admin', content: `Now yours: ${one}, ${two}.` },
      },
    },
  ];
};

export const languageOf = (request: Request): 'zh-CN' | 'en-US' => (/^zh/i.test(request.headers.get('accept-language') ?? 'zh') ? 'zh-CN' : 'en-US');

const unreadOf = (box: readonly MockMessage[]) => {
  const counts = noUnread();
  for (const message of box) if (message.status === MESSAGE_UNREAD) counts[message.type] += 1;
  return counts;
};

/** Every mock account's box, shared by the box's calls and the calls that make or settle its messages. */
export interface MockBoxes {
  boxOf: (account: string) => MockMessage[];
  /** Posts an unread message to each of the accounts' boxes. */
  post: (accounts: readonly string[], message: Omit<MockMessage, 'id' | 'status'>) => void;
  /** Marks every message about `about` read, in every box: what it waited on was decided. */
  resolve: (about: string) => void;
  /** Removes every message about `about`, from every box: what it named was replaced. */
  drop: (about: string) => void;
}

/**
 * The boxes of a mock server. Given boxes are each account's whole box (none: empty); otherwise each
 * account's is seeded when first read.
 */
export const mockBoxes = (seed: { seededAt: number; devices: readonly WireRecord[]; boxes?: Map<string, MockMessage[]> }): MockBoxes => {
  const boxes = seed.boxes ?? new Map<string, MockMessage[]>();
  const boxOf = (account: string): MockMessage[] => {
    const box = boxes.get(account) ?? (seed.boxes ? [] : seedBox(seed.seededAt, seed.devices.map((device) => String(device.Id))));
    boxes.set(account, box);
    return box;
  };
  return {
    boxOf,
    post: (accounts, message) => {
      for (const account of accounts) {
        const box = boxOf(account);
        box.push({ ...message, id: Math.max(0, ...box.map((each) => each.id)) + 1, status: MESSAGE_UNREAD });
      }
    },
    resolve: (about) => {
      for (const box of boxes.values()) for (const message of box) if (message.about === about) message.status = MESSAGE_READ;
    },
    drop: (about) => {
      for (const [account, box] of boxes) boxes.set(account, box.filter((message) => message.about !== about));
    },
  };
};

/**
 * `POST {base}/api/message/list` and `/api/message/read` (docs/messages.md) in the mocks: each signed-in mock
 * account has its own box, listed newest first in the caller's language, and marks only its own messages
 * read. Bodies are checked with the server's schemas.
 */
export const messageHandlers = (base: string, check: AccessCheck, boxes: MockBoxes) => {
  const boxOf = (request: Request): MockMessage[] => boxes.boxOf(mockAccountOf(request) ?? '');
  return [
    http.post(`${base}${MESSAGE_CALLS.list}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, 'messages', 'list');
      if (refused) return refused;
      const body = messageListBodySchema.safeParse((await readJson(request)) ?? {});
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const { current, pageSize, filter = {} } = body.data;
      const box = boxOf(request);
      const language = languageOf(request);
      const found = box
        .filter((message) => (filter.type === undefined || message.type === filter.type) && (filter.status === undefined || message.status === filter.status))
        .sort((a, b) => b.time - a.time);
      const list = found.slice((current - 1) * pageSize, current * pageSize).map(({ texts, about: _about, ...message }): Message => ({ ...message, ...texts[language] }));
      return ok<MessageListAnswer>({ list, total: found.length, unread: unreadOf(box) });
    }),
    http.post(`${base}${MESSAGE_CALLS.read}`, async ({ request }) => {
      const refused = upstreamRefusal(request, check, 'messages', 'edit');
      if (refused) return refused;
      const body = messageReadBodySchema.safeParse(await readJson(request));
      if (!body.success) return fail(CODES.badInput, badInputMessage(body.error));
      const box = boxOf(request);
      let read = 0;
      for (const message of box) {
        if (message.status !== MESSAGE_UNREAD || !body.data.ids.includes(message.id)) continue;
        message.status = MESSAGE_READ;
        read += 1;
      }
      return ok<MessageReadAnswer>({ read, unread: unreadOf(box) });
    }),
  ];
};
