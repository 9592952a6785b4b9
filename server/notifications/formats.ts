import { createHmac } from 'node:crypto';
import type { ChannelType } from '../../src/domain/notifications';
import type { Notification } from './message';

/**
 * Each webhook's request, in the format its receiver expects (docs/notifications.md, "What arrives"):
 *   - webhook: the notification as JSON, signed: `X-Oxygen-Signature: sha256=<hex HMAC-SHA256 of the body
 *     with the channel's secret>`, with `X-Oxygen-Delivery` (the outbox row's id: the same on a retry, so a
 *     receiver may drop a repeat) and `X-Oxygen-Timestamp`;
 *   - wecom: a WeCom group robot's markdown message;
 *   - dingtalk: a DingTalk robot's markdown message; with a signing secret, `timestamp` and `sign` (base64
 *     HMAC-SHA256 of `timestamp\nsecret`) added to the URL's query, as DingTalk's "加签" asks;
 *   - slack: an incoming webhook's text with one mrkdwn section.
 */

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

const SIGNATURE_HEADER = 'x-oxygen-signature';
export const DELIVERY_HEADER = 'x-oxygen-delivery';
const TIMESTAMP_HEADER = 'x-oxygen-timestamp';

const hmacHex = (secret: string, body: string): string => createHmac('sha256', secret).update(body).digest('hex');

const dingTalkSign = (secret: string, timestamp: number): string =>
  createHmac('sha256', secret).update(`${timestamp}\n${secret}`).digest('base64');

/** The notification as lines of markdown: title in bold, then its facts, then the link. */
const markdownOf = (notification: Notification, bold: (text: string) => string, link: (text: string, url: string) => string): string =>
  [bold(notification.title), ...notification.lines, link(notification.linkText, notification.link)].join('\n');

const json = { 'content-type': 'application/json' };

export const webhookRequest = (
  type: Exclude<ChannelType, 'email'>,
  target: { url: string; secret: string | null },
  notification: Notification,
  delivery: { id: number; at: number },
): WebhookRequest => {
  switch (type) {
    case 'webhook': {
      const body = JSON.stringify({ delivery: delivery.id, sentAt: delivery.at, ...notification });
      const signature: Record<string, string> = target.secret === null ? {} : { [SIGNATURE_HEADER]: `sha256=${hmacHex(target.secret, body)}` };
      return { url: target.url, headers: { ...json, ...signature, [DELIVERY_HEADER]: String(delivery.id), [TIMESTAMP_HEADER]: String(delivery.at) }, body };
    }
    case 'wecom':
      return {
        url: target.url,
        headers: json,
        body: JSON.stringify({ msgtype: 'markdown', markdown: { content: markdownOf(notification, (text) => `**${text}**`, (text, url) => `[${text}](${url})`) } }),
      };
    case 'dingtalk': {
      const url = new URL(target.url);
      if (target.secret !== null) {
        url.searchParams.set('timestamp', String(delivery.at));
        url.searchParams.set('sign', dingTalkSign(target.secret, delivery.at));
      }
      const text = markdownOf(notification, (line) => `#### ${line}`, (line, link) => `[${line}](${link})`).replaceAll('\n', '\n\n');
      return { url: url.toString(), headers: json, body: JSON.stringify({ msgtype: 'markdown', markdown: { title: notification.title, text } }) };
    }
    case 'slack': {
      const text = markdownOf(notification, (line) => `*${line}*`, (line, link) => `<${link}|${line}>`);
      return { url: target.url, headers: json, body: JSON.stringify({ text: notification.title, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] }) };
    }
  }
};

/**
 * Whether a receiver's answer means it took the message: a 2xx, and for the chat robots (which answer 200 to
 * a refused message too) `errcode` 0.
 */
export const accepted = (type: ChannelType, status: number, answer: string): boolean => {
  if (status < 200 || status > 299) return false;
  if (type !== 'wecom' && type !== 'dingtalk') return true;
  try {
    return (JSON.parse(answer) as { errcode?: unknown }).errcode === 0;
  } catch {
    return false;
  }
};
