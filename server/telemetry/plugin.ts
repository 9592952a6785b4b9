import fp from 'fastify-plugin';
import { createIngest, type Ingest, type IngestOptions } from './ingest';

declare module 'fastify' {
  interface FastifyInstance {
    /** Ingestion, in the process that takes the devices' messages (not a cluster worker beside the primary's broker). */
    ingest: Ingest;
  }
}

/** Ingestion's batch, timer and log settings (tests); default its own. */
export type IngestPluginOptions = Omit<IngestOptions, 'log' | 'alarms'>;

/**
 * Decorates `ingest`: the devices' messages, as the MQTT plugin's transport hands them over, stored in
 * the database (docs/ingest.md), each commit then fed to the alarm plugin's engine. It depends on all
 * three, so it closes before them: once closing, messages are left unsettled (never acknowledged: the
 * broker or the device sends them again), and what ingestion holds is written while the store is open.
 */
export const ingestPlugin = fp<IngestPluginOptions>(
  async (app, options) => {
    const ingest = createIngest(app.ctx, { log: app.log.child({ component: 'mqtt' }), ...options, alarms: app.alarms });
    app.decorate('ingest', ingest);
    let stopping = false;
    try {
      await app.mqtt.start((message) => {
        if (!stopping) ingest.accept(message);
      });
    } catch (error) {
      await ingest.close();
      throw error;
    }
    app.addHook('onClose', async () => {
      stopping = true;
      await ingest.close();
    });
  },
  {
    name: 'oxygen-ingest',
    fastify: '5.x',
    dependencies: ['oxygen-database', 'oxygen-context', 'oxygen-mqtt', 'oxygen-alarms'],
    decorators: { fastify: ['ctx', 'mqtt', 'alarms'] },
  },
);
