import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { BrowserRouter } from 'react-router-dom';
import { handlers } from '../../mocks/handlers';
import type { Message, MessageListAnswer, MessageListBody } from '../../src/domain/messages';
import { App } from '../../src/App';
import { signIn } from './console';
import { writableLiveStream } from './live/writableStream';
import { wait } from './resources/dom';

/**
 * The message box in the console, in jsdom against the msw mocks (each mock account has a seeded box: two
 * unread command outcomes, two read messages), with a live stream the test writes to.
 */
const upstreamBase = 'http://console.test/upstream';
const restBase = 'http://console.test/api/v1';

const live = writableLiveStream(restBase);
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// Every test gets fresh mocks: its own boxes, nothing read yet.
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllEnvs();
  localStorage.clear();
});
afterAll(() => server.close());

const bell = () => document.querySelector<HTMLElement>('[data-message-box]');
const unreadOnBell = () => bell()?.querySelector('[data-unread]')?.getAttribute('data-unread');
const panel = () => document.querySelector<HTMLElement>('[data-message-box-panel]');
const items = () => [...(panel()?.querySelectorAll<HTMLElement>('[data-message-id]') ?? [])];

const openConsole = async () => {
  server.use(live.handler, ...handlers(upstreamBase, restBase));
  window.history.replaceState(null, '', '/dashboard/workplace');
  render(
    <BrowserRouter>
      <App config={{ upstreamBase, restBase }} />
    </BrowserRouter>,
  );
  await signIn('admin', 'Admin2026');
  await waitFor(() => expect(unreadOnBell()).toBe('2'), wait);
};

const openBox = async () => {
  fireEvent.click(bell() as HTMLElement);
  await waitFor(() => expect(items()).toHaveLength(4), wait);
};

describe('the message box', () => {
  it('shows the unread count, the messages newest first with read state, and reads them one by one or all at once', async () => {
    await openConsole();
    expect(bell()?.getAttribute('aria-label')).toBe('消息通知，2 条未读');
    await openBox();
    const tabs = within(panel() as HTMLElement).getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['消息（2）', '通知', '待办']);
    expect(items().map((item) => item.getAttribute('data-message-status'))).toEqual(['0', '0', '1', '1']);
    const [newest] = items();
    expect(newest?.textContent).toContain('指令已执行：Id-001 状态变更');
    expect(newest?.textContent).toContain('Id-001 已确认执行状态变更指令。');

    fireEvent.click(newest as HTMLElement);
    await waitFor(() => expect(unreadOnBell()).toBe('1'), wait);
    await waitFor(() => expect(items()[0]?.getAttribute('data-message-status')).toBe('1'), wait);

    fireEvent.click(within(panel() as HTMLElement).getByRole('button', { name: '全部已读' }));
    await waitFor(() => expect(unreadOnBell()).toBe('0'), wait);
    await waitFor(() => expect(items().map((item) => item.getAttribute('data-message-status'))).toEqual(['1', '1', '1', '1']), wait);
    expect(within(panel() as HTMLElement).getAllByRole('tab')[0]?.textContent).toBe('消息');
    // The mocks' boxes hold no alarm notices or todos.
    fireEvent.click(within(panel() as HTMLElement).getByRole('tab', { name: '通知' }));
    await within(panel() as HTMLElement).findByText('暂无内容', {}, wait);
  });

  it('counts a message that arrives on the live stream without a reload', async () => {
    await openConsole();
    const arrived: Message = {
      id: 99,
      type: 'message',
      title: '指令无应答：Id-009 权限变更',
      subTitle: 'Id-009',
      avatar: '',
      content: 'Id-009 未在规定时间内应答权限变更指令，请检查舱体后再发送。',
      time: Date.now(),
      messageType: 'commandOutcome',
      status: 0,
    };
    // The box now holds a third unread message; only the live event tells the console to ask again.
    const now: MessageListAnswer = { list: [arrived], total: 1, unread: { message: 3, notice: 0, todo: 0 } };
    server.use(http.post(`${upstreamBase}/api/message/list`, () => HttpResponse.json({ data: now, status: 'ok', msg: '', code: 20000 })));
    live.send(`id: t.2\nevent: message\ndata: ${JSON.stringify({ account: 1, id: 99, type: 'message' })}\n\n`);
    await waitFor(() => expect(unreadOnBell()).toBe('3'), wait);
    fireEvent.click(bell() as HTMLElement);
    await waitFor(() => expect(items().map((item) => item.textContent)).toEqual([expect.stringContaining('指令无应答：Id-009 权限变更')]), wait);
  });

  it("shows an alarm's notice and todo with its kind's icon, leads to the alarm, and a resolved todo leaves the count live", async () => {
    const alarm = { id: 17, deviceId: 'Id-003' };
    const notice: Message = {
      id: 51,
      type: 'notice',
      title: '高优先级报警：Id-003 舱内氧浓度高',
      subTitle: 'Id-003',
      avatar: '',
      content: '报警编号 17，报警值 23.6，阈值 23.5。',
      time: Date.now(),
      messageType: 'alarmRaised',
      status: 0,
      alarm,
    };
    const todo: Message = { ...notice, id: 52, type: 'todo', title: '待确认：Id-003 舱内氧浓度高（高优先级）', messageType: 'alarmAwaitingAck' };
    let resolved = false;
    await openConsole();
    server.use(
      http.post(`${upstreamBase}/api/message/list`, async ({ request }) => {
        const { filter } = (await request.json()) as MessageListBody;
        const held = [resolved ? { ...todo, status: 1 as const } : todo, notice].filter((message) => filter?.type === undefined || message.type === filter.type);
        const page: MessageListAnswer = { list: held, total: held.length, unread: { message: 0, notice: 1, todo: resolved ? 0 : 1 } };
        return HttpResponse.json({ data: page, status: 'ok', msg: '', code: 20000 });
      }),
    );
    live.send(`id: t.3\nevent: message\ndata: ${JSON.stringify({ account: 1, id: 52, type: 'todo' })}\n\n`);
    await waitFor(() => expect(unreadOnBell()).toBe('2'), wait);

    fireEvent.click(bell() as HTMLElement);
    fireEvent.click(within(panel() as HTMLElement).getByRole('tab', { name: '待办（1）' }));
    await waitFor(() => expect(items().map((item) => item.getAttribute('data-message-id'))).toEqual(['52']), wait);
    const [waiting] = items();
    expect(waiting?.textContent).toContain('待确认：Id-003 舱内氧浓度高（高优先级）');
    expect(waiting?.querySelector('[data-testid="AssignmentLateIcon"]')).not.toBeNull();
    expect(waiting?.getAttribute('href')).toBe('/alarms/17/show');

    // Someone acknowledged the alarm: the server read the todo and says so on the stream.
    resolved = true;
    live.send(`id: t.4\nevent: message\ndata: ${JSON.stringify({ account: 1, id: 52, type: 'todo' })}\n\n`);
    await waitFor(() => expect(unreadOnBell()).toBe('1'), wait);
    await waitFor(() => expect(items()[0]?.getAttribute('data-message-status')).toBe('1'), wait);
    expect(within(panel() as HTMLElement).getByRole('tab', { name: '待办' })).toBeTruthy();

    fireEvent.click(within(panel() as HTMLElement).getByRole('tab', { name: '通知（1）' }));
    await waitFor(() => expect(items().map((item) => item.getAttribute('data-message-id'))).toEqual(['51']), wait);
    const [raised] = items();
    expect(raised?.querySelector('[data-testid="NotificationImportantIcon"]')).not.toBeNull();
    fireEvent.click(raised as HTMLElement);
    await waitFor(() => expect(window.location.pathname).toBe('/alarms/17/show'), wait);
    await waitFor(() => expect(panel()).toBeNull(), wait);
  });

  it("shows a waiting certificate as its approver's todo, leading to the certification tab, done once it is decided", async () => {
    await openConsole();
    const post = async (path: string, body: unknown, token = '') => {
      const response = await fetch(`${upstreamBase}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      return (await response.json()) as { code: number; data: { token: string } };
    };
    const client = (await post('/login', { Account: 'client', Code: 'Client2026' })).data.token;
    const submitted = await post('/api/user/certification/submit', { number: 'HBO-2026-0042', issuer: '浙江省高压氧学会', expiresOn: '2099-06-30' }, client);
    expect(submitted.code).toBe(20000);
    live.send(`id: c.1\nevent: message\ndata: ${JSON.stringify({ account: 1, id: 5, type: 'todo' })}\n\n`);
    await waitFor(() => expect(unreadOnBell()).toBe('3'), wait);

    fireEvent.click(bell() as HTMLElement);
    fireEvent.click(within(panel() as HTMLElement).getByRole('tab', { name: '待办（1）' }));
    await waitFor(() => expect(items()).toHaveLength(1), wait);
    const [todo] = items();
    expect(todo?.textContent).toContain('待审核：client 的操作员证书');
    expect(todo?.textContent).toContain('证书编号 HBO-2026-0042，发证机构 浙江省高压氧学会，有效期至 2099-06-30。');
    expect(todo?.querySelector('[data-testid="CardMembershipIcon"]')).not.toBeNull();
    expect(todo?.getAttribute('href')).toBe('/user/setting?tab=certification');

    // Another approver decides it: the todo is done, and the stream says so.
    const user = (await post('/login', { Account: 'user', Code: 'User2026' })).data.token;
    expect((await post('/api/user/certification/decide', { account: 'client', pass: false }, user)).code).toBe(20000);
    live.send(`id: c.2\nevent: message\ndata: ${JSON.stringify({ account: 1, id: 5, type: 'todo' })}\n\n`);
    await waitFor(() => expect(unreadOnBell()).toBe('2'), wait);
    await waitFor(() => expect(items()[0]?.getAttribute('data-message-status')).toBe('1'), wait);
    fireEvent.click(items()[0] as HTMLElement);
    await waitFor(() => expect(`${window.location.pathname}${window.location.search}`).toBe('/user/setting?tab=certification'), wait);
    await waitFor(() => expect(panel()).toBeNull(), wait);
  });

  it('loads the next page with "view more" until every message is shown', async () => {
    const many = Array.from({ length: 12 }, (_, index): Message => ({
      id: index + 1,
      type: 'message',
      title: `消息 ${index + 1}`,
      subTitle: '',
      avatar: '',
      content: '',
      time: Date.UTC(2026, 0, 1) - index * 60_000,
      messageType: 'commandOutcome',
      status: 1,
    }));
    await openConsole();
    server.use(
      http.post(`${upstreamBase}/api/message/list`, async ({ request }) => {
        const { current = 1, pageSize = 10 } = (await request.json()) as { current?: number; pageSize?: number };
        const page: MessageListAnswer = { list: many.slice((current - 1) * pageSize, current * pageSize), total: many.length, unread: { message: 0, notice: 0, todo: 0 } };
        return HttpResponse.json({ data: page, status: 'ok', msg: '', code: 20000 });
      }),
    );
    fireEvent.click(bell() as HTMLElement);
    await waitFor(() => expect(items()).toHaveLength(10), wait);
    const more = within(panel() as HTMLElement).getByRole('button', { name: '查看更多' }) as HTMLButtonElement;
    fireEvent.click(more);
    await waitFor(() => expect(items().map((item) => item.querySelector('.MuiListItemText-primary')?.textContent)).toEqual(many.map((message) => message.title)), wait);
    await waitFor(() => expect(more.disabled).toBe(true), wait);
  });

  it('leads to the user centre and the settings drawer, and signs out', async () => {
    await openConsole();
    await openBox();
    // No role switch outside the mock mode's development builds.
    expect(document.querySelector('[data-role-switch]')).toBeNull();
    fireEvent.click(within(panel() as HTMLElement).getByText('个性化设置'));
    await waitFor(() => expect(JSON.parse(localStorage.getItem('RaStore.consoleSettings.drawerOpen') ?? 'false')).toBe(true), wait);
    await openBox();
    fireEvent.click(within(panel() as HTMLElement).getByText('个人中心'));
    await waitFor(() => expect(window.location.pathname).toBe('/user/info'), wait);
    await openBox();
    fireEvent.click(within(panel() as HTMLElement).getByText('退出登录'));
    await waitFor(() => expect(window.location.pathname).toBe('/login'), wait);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('in the mock mode, switches role admin → user → lowUser → client → admin', async () => {
    vi.stubEnv('MODE', 'mock');
    await openConsole();
    const seen: string[] = [];
    for (let step = 0; step < 4; step += 1) {
      await openBox();
      const item = await waitFor(() => {
        const found = document.querySelector<HTMLElement>('[data-role-switch]');
        expect(found).not.toBeNull();
        return found as HTMLElement;
      }, wait);
      seen.push(item.textContent ?? '');
      fireEvent.click(item);
      await waitFor(() => expect(document.querySelector('[data-role-switch]')?.textContent).not.toBe(seen.at(-1)), wait);
    }
    expect(seen).toEqual(['切换角色（当前：admin）', '切换角色（当前：user）', '切换角色（当前：lowUser）', '切换角色（当前：client）']);
    expect(document.querySelector('[data-role-switch]')?.textContent).toBe('切换角色（当前：admin）');
  });
});
