import type { FastifyInstance, FastifyRequest } from 'fastify';
import { brokerAddressOf, type BrokerAddress } from '../../src/domain/mqtt/connection';

/**
 * Where a chamber reaches the broker, for the connection example answered with a new secret
 * (docs/server-devices.md, "Connection example"): MQTT_PUBLIC_URL when set; else an external broker's
 * MQTT_URL; else the embedded broker on the host the console was reached by (a broker listening on
 * every interface is reached where the HTTP side is) and the port it really listens on (MQTT_PORT=0
 * picks one; a cluster worker reads the primary's from its configuration).
 */
export const brokerAddressFor = (app: FastifyInstance, request: FastifyRequest): BrokerAddress => {
  const { mqtt, mqttPublicUrl } = app.ctx.config;
  if (mqttPublicUrl !== undefined) return mqttPublicUrl;
  if (mqtt.kind === 'external') {
    const external = brokerAddressOf(new URL(mqtt.url));
    // The configuration accepts only URLs brokerAddressOf reads (mqtt, mqtts, ws, wss with a host).
    if (external === undefined) throw new Error(`MQTT_URL ${mqtt.url} names no broker`);
    return external;
  }
  const listening = app.hasDecorator('mqtt') ? app.mqtt.port : null;
  return { scheme: 'mqtt', host: request.hostname, port: listening ?? mqtt.port };
};
