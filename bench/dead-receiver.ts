import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signInApi } from './fleet';

/**
 * A notification receiver that never answers (docs/notifications.md, "Delivery"): bench:alarms sends every
 * alarm to it, so that its figures are taken with a dead receiver holding the delivery worker's slots. The
 * super administrator `admin` adds a Slack channel pointing at it and each of `subscribers` chooses it for
 * every priority.
 */
export const startDeadReceiver = async (
  serverUrl: string,
  admin: { Account: string; Code: string },
  subscribers: readonly { Account: string; Code: string }[],
): Promise<{ requests: () => number; stop: () => Promise<void> }> => {
  const held = new Set<ServerResponse>();
  let requests = 0;
  const receiver = createServer((_request, response) => {
    requests += 1;
    held.add(response);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/never`;
  const call = async (token: string, method: 'POST' | 'PUT', path: string, body: unknown) => {
    const answer = await fetch(`${serverUrl}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${method} /api/v1${path}: HTTP ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as { id: number };
  };
  const channel = await call(await signInApi(serverUrl, admin), 'POST', '/notification-channels', { name: 'dead receiver', type: 'slack', enabled: true, url });
  for (const subscriber of subscribers) {
    await call(await signInApi(serverUrl, subscriber), 'PUT', '/notification-preferences', {
      subscriptions: [{ channelId: channel.id, priorities: ['high', 'medium', 'low'] }],
      quietHours: null,
    });
  }
  return {
    requests: () => requests,
    stop: async () => {
      for (const response of held) response.destroy();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    },
  };
};
