import fp from 'fastify-plugin';
import { sql } from 'kysely';

/**
 * GET /healthz: `{ status: 'ok' }` when the database answers, else 503 `{ status: 'unavailable' }`. With
 * the MQTT plugin, `mqtt` adds the broker's state and the refusal and ingestion counters
 * (docs/mqtt.md, "Counters"): numbers only, no device names. A broker away does not fail the check:
 * the process still serves HTTP, and reconnects by itself.
 */
export const healthPlugin = fp(
  async (app) => {
    app.get('/healthz', async (request, reply) => {
      const mqtt = app.hasDecorator('mqtt') ? { mqtt: app.mqtt.status() } : {};
      try {
        await sql`select 1`.execute(app.ctx.db);
        return { status: 'ok', ...mqtt };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unavailable');
        return reply.code(503).send({ status: 'unavailable', ...mqtt });
      }
    });
  },
  { name: 'oxygen-health', fastify: '5.x', dependencies: ['oxygen-context'] },
);
