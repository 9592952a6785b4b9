import { sql } from 'kysely';
import { globalPlugin } from './plugin';

/** GET /healthz: `{ status: 'ok' }` when the database answers, else 503 `{ status: 'unavailable' }`. */
export const healthPlugin = globalPlugin('oxygen-health', async (app) => {
  app.get('/healthz', async (request, reply) => {
    try {
      await sql`select 1`.execute(app.ctx.db);
      return { status: 'ok' };
    } catch (error) {
      request.log.error({ err: error }, 'health check: database unavailable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
});
