import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import { liveEventSchema, liveTopicOf, type LiveEvent } from '../../src/domain/live';
import { TOPIC_QOS, TOPIC_RETAIN, topicFor } from '../../src/domain/mqtt/topics';
import type { AppContext } from '../context';
import { verifyDeviceSecret } from '../devices/registry';
import type { IngestCounters } from '../telemetry/counters';
import { createClientTransport, type ClientTransport } from './client';
import { newServerCredentials, type BrokerCounters, type BrokerCredentials } from './config';
import { createEmbeddedTransport, type EmbeddedTransport } from './embedded';
import { brokerListeners } from './listeners';
import type { InboundMessage } from './transport';

/**
 * The MQTT plugin (docs/mqtt.md, "Running the broker"): one transport, chosen from the
 * configuration, and what hangs on it.
 *
 *   no MQTT_URL   the embedded broker (aedes) on MQTT_PORT and/or MQTT_TLS_PORT, device messages in-process
 *   MQTT_URL      a client of that broker, device messages through shared subscriptions
 *   `primary`     a cluster worker: a client of the primary's embedded broker, without ingestion
 *
 * It connects the app's device link (`link`, ctx.link: commands on `oc/{Id}/cmd`, QoS 1; disconnecting a
 * device), relays the live feed through the broker (`oxygen-live/{Id}`, an account's messages on
 * `oxygen-live/account.{id}`, QoS 0) so every server process gets every event, and decorates `mqtt`, whose
 * `start` hands device messages to ingestion (server/telemetry/plugin.ts), which settles each once handled.
 * Ingestion depends on this plugin, so it closes first: no more messages are taken, it writes what it
 * holds, then the transport closes (whatever was not settled is never acknowledged, and comes again).
 */

/** How often the counters are logged (when they changed): where to read them when no HTTP is served (a cluster's primary). */
const COUNTERS_LOG_INTERVAL_MS = 60_000;

/** The primary's embedded broker, as a cluster worker reaches it (server/main.ts). */
interface PrimaryBroker {
  port: number;
  credentials: BrokerCredentials;
  clientId: string;
}

export interface MqttPluginOptions {
  /** The embedded broker's own client identity; main.ts makes it to hand it to cluster workers. Default: fresh. */
  serverCredentials?: BrokerCredentials;
  /** Set in a cluster worker when the primary runs the embedded broker: connect there, take no device messages. */
  primary?: PrimaryBroker;
  /** Appended to MQTT_CLIENT_ID so each cluster worker has its own session on an external broker, e.g. `.w2`. */
  clientIdSuffix?: string;
  /** The external broker's share group; default SERVER_SHARE_GROUP (tests on a shared broker use their own). */
  shareGroup?: string;
  /** How often the counters are logged when they changed; default COUNTERS_LOG_INTERVAL_MS. */
  countersLogMs?: number;
}

/** What an operator reads on /healthz (docs/mqtt.md, "Counters"); `ingest` where ingestion runs (not in a cluster worker beside the primary's broker). */
export type MqttStatus =
  | { broker: 'embedded'; port: number | null; tlsPort: number | null; clients: number; refused: BrokerCounters; pending: number; ingest?: IngestCounters }
  | { broker: 'external'; connected: boolean; reconnects: number; pending: number; ingest?: IngestCounters }
  | { broker: 'primary'; connected: boolean };

interface MqttRuntime {
  /** The embedded broker's plain port (the real one when MQTT_PORT is 0); null for a client, or without a plain listener. */
  readonly port: number | null;
  /** The embedded broker's TLS port (the real one when MQTT_TLS_PORT is 0); null for a client, or without TLS. */
  readonly tlsPort: number | null;
  status(): MqttStatus;
  /** Starts handing device messages to `onMessage` (ingestion); refused in a cluster worker beside the primary's broker. */
  start(onMessage: (message: InboundMessage) => void): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Present when the app was built with the MQTT plugin. */
    mqtt: MqttRuntime;
  }
}

type Opened =
  | { kind: 'embedded'; transport: EmbeddedTransport }
  | { kind: 'external'; transport: ClientTransport }
  | { kind: 'primary'; transport: ClientTransport };

const openTransport = async (ctx: AppContext, options: MqttPluginOptions, log: FastifyBaseLogger): Promise<Opened> => {
  if (options.primary !== undefined) {
    const { port, credentials, clientId } = options.primary;
    const transport = await createClientTransport({
      broker: 'primary',
      url: `mqtt://127.0.0.1:${port}`,
      username: credentials.username,
      password: credentials.password,
      clientId,
      log,
    });
    return { kind: 'primary', transport };
  }
  const target = ctx.config.mqtt;
  if (target.kind === 'embedded') {
    const transport = await createEmbeddedTransport({
      ...(await brokerListeners(target, ctx.config.workers)),
      authenticate: (deviceId, secret) => verifyDeviceSecret(ctx, deviceId, secret),
      serverCredentials: options.serverCredentials ?? newServerCredentials(),
      log,
    });
    return { kind: 'embedded', transport };
  }
  const transport = await createClientTransport({
    broker: 'external',
    url: target.url,
    username: target.username,
    password: target.password,
    clientId: `${target.clientId}${options.clientIdSuffix ?? ''}`,
    shareGroup: options.shareGroup ?? target.shareGroup,
    log,
  });
  return { kind: 'external', transport };
};

const status = (opened: Opened, ingest: IngestCounters | undefined): MqttStatus => {
  if (opened.kind === 'primary') return { broker: 'primary', connected: opened.transport.connected };
  const counted = ingest === undefined ? {} : { ingest };
  if (opened.kind === 'embedded') {
    const { broker, pending } = opened.transport;
    return { broker: 'embedded', port: broker.port, tlsPort: broker.tlsPort, clients: broker.connectedClients, refused: broker.counters, pending, ...counted };
  }
  const { connected, reconnects, pending } = opened.transport;
  return { broker: 'external', connected, reconnects, pending, ...counted };
};

export const mqttPlugin = fp<MqttPluginOptions>(
  async (app, options) => {
    const { ctx, link } = app;
    const log = app.log.child({ component: 'mqtt' });
    const opened = await openTransport(ctx, options, log);
    const { transport } = opened;

    try {
      link.connect({
        sendCommand: (deviceId, command) => transport.publish(topicFor(deviceId, 'cmd'), JSON.stringify(command), { qos: TOPIC_QOS.cmd, retain: TOPIC_RETAIN.cmd }),
        disconnectDevice: (deviceId) => transport.disconnectDevice(deviceId),
      });

      const relay = (event: LiveEvent): Promise<void> =>
        transport.publish(liveTopicOf(event), JSON.stringify(event), { qos: 0, retain: false });
      if (opened.kind === 'embedded') {
        // The broker is in this process: its own viewers get each event directly (no JSON round trip through
        // the broker), and cluster workers, the only other processes, through the broker.
        const workers = ctx.config.workers > 1;
        ctx.live.setRelay((event) => {
          ctx.live.deliver(event);
          if (workers) relay(event).catch(() => undefined);
        });
      } else {
        // Every process gets each event back from the broker, this one included; without a broker connection
        // (an external one being away) this process's own viewers still get its events.
        ctx.live.setRelay((event) => void relay(event).catch(() => ctx.live.deliver(event)));
        await transport.subscribeLive((topic, payload) => {
          let event: LiveEvent | undefined;
          try {
            const parsed = liveEventSchema.safeParse(JSON.parse(payload.toString('utf8')));
            if (parsed.success && liveTopicOf(parsed.data) === topic) event = parsed.data;
          } catch {
            // Not JSON: refused below like any other bad event.
          }
          if (event === undefined) {
            log.warn({ topic: topic.slice(0, 80) }, 'live: relayed event refused (not a live event for its topic)');
            return;
          }
          ctx.live.deliver(event);
        });
      }
    } catch (error) {
      ctx.live.setRelay(undefined);
      link.disconnect();
      await transport.close();
      throw error;
    }

    // Ingestion's counters, where it runs (server/telemetry/plugin.ts decorates `ingest` once this plugin is in).
    const current = (): MqttStatus => status(opened, app.hasDecorator('ingest') ? app.ingest.counters : undefined);
    app.decorate('mqtt', {
      port: opened.kind === 'embedded' ? opened.transport.broker.port : null,
      tlsPort: opened.kind === 'embedded' ? opened.transport.broker.tlsPort : null,
      status: current,
      start: (onMessage) =>
        opened.kind === 'primary'
          ? Promise.reject(new Error('a cluster worker beside the primary\'s broker takes no device messages: ingestion runs in the primary'))
          : opened.transport.start(onMessage),
    } satisfies MqttRuntime);

    let logged = '';
    const counters =
      opened.kind === 'primary'
        ? undefined
        : setInterval(() => {
            const state = current();
            const text = JSON.stringify(state);
            if (text === logged) return;
            logged = text;
            log.info({ mqtt: state }, 'mqtt: counters');
          }, options.countersLogMs ?? COUNTERS_LOG_INTERVAL_MS).unref();

    app.addHook('onClose', async () => {
      clearInterval(counters);
      ctx.live.setRelay(undefined);
      link.disconnect();
      await transport.close();
    });
  },
  {
    name: 'oxygen-mqtt',
    fastify: '5.x',
    dependencies: ['oxygen-context', 'oxygen-device-link', 'oxygen-live-feed'],
    decorators: { fastify: ['ctx', 'link'] },
  },
);
