import fp from 'fastify-plugin';
import { z } from 'zod';
import { devicesConfig } from '../../src/resources/devices/config';
import { CODES } from '../../src/domain/envelope';
import { requireAccess, signedIn } from '../auth/guard';
import { AppError } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { createLiveHub, liveScope } from './hub';
import { SSE_HEADERS } from './sse';

/** A session at its cap of streams is told to try again after this long: streams end as tabs close. */
const LIVE_RETRY_AFTER_SECONDS = 30;

/**
 * `GET /live` (under /api/v1): the live stream of one browser tab, server-sent events (docs/live.md). The
 * bearer token comes in the Authorization header like every other call (never in the URL); whoever may
 * list devices may open it, and it carries only the devices the viewer sees. `Last-Event-ID` resumes.
 * Refusals are the REST API's (401 without a live session; 429, code 42900, with `Retry-After` when the
 * session holds LIVE_STREAMS_PER_SESSION streams in this process already). Closing the app ends every stream first.
 */
export const livePlugin = fp(
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const hub = createLiveHub(app.ctx, app.log.child({ module: 'live' }));
    app.addHook('preClose', async () => hub.close());

    app.get(
      '/live',
      {
        // No query at all: a token put in the URL is refused, not ignored.
        schema: { querystring: z.strictObject({}) },
        // An automatic HEAD route would open a stream too.
        exposeHeadRoute: false,
        onRequest: requireAccess({ resource: devicesConfig.name, action: 'list' }),
      },
      async (request, reply) => {
        const account = signedIn(request);
        // A fresh stream starts with what arrives from now on, also while its scope is read.
        const from = hub.head();
        const scope = await liveScope(app.ctx, account);
        // Checked right before the stream opens, with nothing awaited in between, so parallel opens cannot pass it together.
        const max = app.ctx.config.liveStreamsPerSession;
        if (hub.streamsOf(account.tokenHash) >= max) {
          void reply.header('retry-after', String(LIVE_RETRY_AFTER_SECONDS));
          throw new AppError(CODES.tooManyAttempts, 'live.tooManyStreams', { max, seconds: LIVE_RETRY_AFTER_SECONDS });
        }
        const lastEventId = request.headers['last-event-id'];
        reply.hijack();
        // The client may have gone while the scope was read.
        if (reply.raw.destroyed) return;
        reply.raw.writeHead(200, SSE_HEADERS);
        hub.open(reply.raw, account, scope, typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : from);
      },
    );
  },
  { name: 'oxygen-live', fastify: '5.x', encapsulate: true, dependencies: ['oxygen-context', 'oxygen-auth'] },
);
