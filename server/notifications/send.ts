import { createTransport } from 'nodemailer';
import type { ChannelType } from '../../src/domain/notifications';
import type { NotificationChannelRow } from '../db/schema';
import { accepted, DELIVERY_HEADER, webhookRequest } from './formats';
import type { Notification } from './message';

/**
 * Sends one notification on one channel and says what the receiver answered. Never throws: a refusal, a
 * network error or no answer within `timeoutMs` is an outcome like a success, which the outbox records.
 */

export interface SendOutcome {
  ok: boolean;
  /** The receiver's answer (status and body, or the SMTP server's reply), or why there was none; at most 500 characters. */
  answer: string;
}

const clip = (text: string): string => (text.length > 500 ? `${text.slice(0, 497)}...` : text);

const reasonOf = (error: unknown): string => (error instanceof Error ? (error.name === 'TimeoutError' ? `no answer: ${error.message}` : error.message) : String(error));

const sendMail = async (channel: NotificationChannelRow, to: string, notification: Notification, deliveryId: number, timeoutMs: number): Promise<SendOutcome> => {
  const transport = createTransport({
    host: channel.host ?? undefined,
    port: channel.port ?? undefined,
    secure: channel.tls === 1,
    ...(channel.username ? { auth: { user: channel.username, pass: channel.secret_value ?? '' } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
  try {
    const info = await transport.sendMail({
      from: channel.sender ?? undefined,
      to,
      subject: notification.title,
      text: [...notification.lines, '', `${notification.linkText}: ${notification.link}`].join('\n'),
      headers: { [DELIVERY_HEADER]: String(deliveryId) },
    });
    return { ok: true, answer: clip(String(info.response)) };
  } finally {
    transport.close();
  }
};

const sendWebhook = async (channel: NotificationChannelRow, notification: Notification, delivery: { id: number; at: number }, timeoutMs: number): Promise<SendOutcome> => {
  const type = channel.type as Exclude<ChannelType, 'email'>;
  const request = webhookRequest(type, { url: channel.url_value ?? '', secret: channel.secret_value || null }, notification, delivery);
  const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeoutMs) });
  const answer = await response.text();
  return { ok: accepted(type, response.status, answer), answer: clip(`${response.status} ${answer}`) };
};

export const sendNotification = async (
  channel: NotificationChannelRow,
  recipient: string,
  notification: Notification,
  delivery: { id: number; at: number },
  timeoutMs: number,
): Promise<SendOutcome> => {
  try {
    return channel.type === 'email'
      ? await sendMail(channel, recipient, notification, delivery.id, timeoutMs)
      : await sendWebhook(channel, notification, delivery, timeoutMs);
  } catch (error) {
    return { ok: false, answer: clip(reasonOf(error)) };
  }
};
