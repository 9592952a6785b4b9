import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { requireRole } from './auth/guard';

/**
 * GET /healthz: liveness for anyone, `{ status: 'ok' }` when the database answers, else 503
 * `{ status: 'unavailable' }`, and nothing more. With a super administrator's bearer token (docs/mqtt.md,
 * "Counters") it adds `mqtt`: the broker's state and the refusal and ingestion counters, numbers only, no
 * device names; any other token is refused like any guarded call (50008, 40300), never answered with less.
 * A broker away does not fail the check: the process still serves HTTP, and reconnects by itself.
 */
const requireAdmin = requireRole('admin');

/** Whether the caller asked for the counters (sent a token) and may read them; throws the guard's refusal otherwise. */
const wantsCounters = async (request: FastifyRequest): Promise<boolean> => {
  if (request.headers.authorization === undefined) return false;
  await requireAdmin(request);
  return true;
};

export const healthPlugin = fp(
  async (app) => {
    app.get('/healthz', async (request, reply) => {
      const counters = (await wantsCounters(request)) && app.hasDecorator('mqtt') ? { mqtt: app.mqtt.status() } : {};
      try {
        await sql`select 1`.execute(app.ctx.db);
        return { status: 'ok', ...counters };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unavailable');
        return reply.code(503).send({ status: 'unavailable', ...counters });
      }
    });
  },
  { name: 'oxygen-health', fastify: '5.x', dependencies: ['oxygen-context', 'oxygen-auth'] },
);
