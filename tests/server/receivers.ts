import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** Local receivers for notifications (docs/notifications.md, "Tests"): an HTTP endpoint and an SMTP server, on free ports. */

export interface ReceivedRequest {
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** How it answers: status and body (default 200 and `ok`); `null` never answers. */
  answer: (request: ReceivedRequest) => { status: number; body: string } | null;
  close: () => Promise<void>;
}

export const httpReceiver = async (): Promise<HttpReceiver> => {
  const held = new Set<() => void>();
  const receiver: HttpReceiver = {
    url: '',
    requests: [],
    answer: () => ({ status: 200, body: 'ok' }),
    close: async () => {
      for (const end of held) end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://receiver');
      const received = { path: url.pathname, query: url.searchParams, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.requests.push(received);
      const answer = receiver.answer(received);
      if (answer === null) {
        held.add(() => response.destroy());
        return;
      }
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
};

export interface ReceivedMail {
  from: string;
  to: string[];
  user: string | undefined;
  data: string;
}

export interface SmtpReceiver {
  port: number;
  mails: ReceivedMail[];
  close: () => Promise<void>;
}

/** An SMTP server accepting any sign-in (recorded) and every mail, without STARTTLS (the channel's TLS off). */
export const smtpReceiver = async (): Promise<SmtpReceiver> => {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mailFrom = session.envelope.mailFrom;
        mails.push({
          from: mailFrom === false ? '' : mailFrom.address,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          user: session.user as string | undefined,
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};
