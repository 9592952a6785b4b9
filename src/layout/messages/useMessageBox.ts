import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { MESSAGE_UNREAD, noUnread, type MessageListAnswer, type MessageListBody, type MessageType, type UnreadCounts } from '../../domain/messages';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useLiveEvent, useLiveResync } from '../../providers/live';

/** Every query of the box starts with this key, so one invalidation refreshes badge and tabs. */
const BOX_KEY = 'messageBox';
/** Messages shown per "view more". */
const MESSAGE_PAGE_SIZE = 10;

/**
 * The box's list call. A call that signs the user out (50008) is answered by react-admin's data provider
 * wrapper with `{ data: {} }` rather than an error; the box then reads as empty while the console signs out.
 */
const listOf =
  (dataProvider: ConsoleDataProvider) =>
  async (body: MessageListBody): Promise<MessageListAnswer> => {
    const answer: Partial<MessageListAnswer> = await dataProvider.messageList(body);
    return { list: answer.list ?? [], total: answer.total ?? 0, unread: answer.unread ?? noUnread() };
  };

/**
 * The unread counts of the signed-in account (the badge and the tabs): read once, then again whenever a
 * message arrives on the live stream or the stream says the tab may be stale.
 */
export const useUnreadCounts = (): UnreadCounts => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: [BOX_KEY] });
  useLiveEvent('message', refresh);
  useLiveResync(refresh);
  const { data } = useQuery({
    queryKey: [BOX_KEY, 'unread'],
    queryFn: async () => (await listOf(dataProvider)({ current: 1, pageSize: 1 })).unread,
  });
  return data ?? noUnread();
};

/** One tab's messages, newest first, page after page ("view more"), while the box is open. */
export const useMessagePages = (type: MessageType, open: boolean) => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const query = useInfiniteQuery({
    queryKey: [BOX_KEY, 'list', type],
    enabled: open,
    initialPageParam: 1,
    queryFn: ({ pageParam }) => listOf(dataProvider)({ current: pageParam, pageSize: MESSAGE_PAGE_SIZE, filter: { type } }),
    getNextPageParam: (last, pages) => (pages.length * MESSAGE_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  });
  return { ...query, messages: query.data?.pages.flatMap((page) => page.list) ?? [] };
};

/** Marks messages read: the given ids, or every unread message of a type ("all read"). */
export const useMarkRead = () => {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (what: { ids: number[] } | { type: MessageType }) => {
      if ('ids' in what) return dataProvider.readMessages({ ids: what.ids });
      // Page by page through what is still unread: each read call marks the page it was given.
      for (;;) {
        const page = await listOf(dataProvider)({ current: 1, pageSize: 100, filter: { type: what.type, status: MESSAGE_UNREAD } });
        if (page.list.length === 0) return undefined;
        await dataProvider.readMessages({ ids: page.list.map((message) => message.id) });
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [BOX_KEY] }),
  });
};
