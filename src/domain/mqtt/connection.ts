import { z } from 'zod';
import { DEVICE_PUBLISHES, DEVICE_SUBSCRIBES, TOPIC_QOS, topicFor } from './topics';

/**
 * How a chamber reaches the broker (docs/server-devices.md, "Connection example"): the server says where
 * the broker is in the answer that carries a new secret, because only it knows (an embedded broker's port,
 * an external broker's address, the address chambers use when it differs: MQTT_PUBLIC_URL); the console
 * never guesses it from its own address. Pure TypeScript: the console, the mocks and the server import it.
 */
const BROKER_SCHEMES = ['mqtt', 'mqtts', 'ws', 'wss'] as const;

const brokerAddressSchema = z.strictObject({
  scheme: z.enum(BROKER_SCHEMES),
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535),
});
export type BrokerAddress = z.infer<typeof brokerAddressSchema>;

/** What a registration or a rotation answers beside the device: its new secret, shown once, and where to use it. */
export const deviceCredentialsSchema = z.object({ Id: z.string(), secret: z.string().min(1), broker: brokerAddressSchema });
export type DeviceCredentials = z.infer<typeof deviceCredentialsSchema>;

/** The default port of each scheme, used when an address names none. */
export const DEFAULT_BROKER_PORTS: Record<BrokerAddress['scheme'], number> = { mqtt: 1883, mqtts: 8883, ws: 80, wss: 443 };

/** `mqtt://host:1883` and the like as an address; undefined for anything else. */
export const brokerAddressOf = (url: URL): BrokerAddress | undefined => {
  const scheme = BROKER_SCHEMES.find((candidate) => `${candidate}:` === url.protocol);
  if (scheme === undefined || url.hostname === '') return undefined;
  return { scheme, host: url.hostname, port: url.port === '' ? DEFAULT_BROKER_PORTS[scheme] : Number(url.port) };
};

export interface ConnectionExample {
  /** Where it publishes (its telemetry, event, status and ack topics) and what it subscribes to (its cmd topic). */
  publishes: string[];
  subscribes: string[];
  /** A line that connects as the device and publishes its retained `online` status: the first thing a chamber does. */
  mosquittoPub: string;
}

/**
 * The connection example the console shows with a new secret. mosquitto_pub speaks MQTT over TCP only; over
 * TLS it checks the broker's certificate against the system's authorities (`--tls-use-os-certs`). The Id and
 * the secret (base64url) hold no character a shell would read, so they are quoted only for clarity.
 */
export const connectionExample = ({ Id, secret, broker }: DeviceCredentials): ConnectionExample => {
  const status = topicFor(Id, 'status');
  const tls = broker.scheme === 'mqtts' ? ' --tls-use-os-certs' : '';
  return {
    publishes: DEVICE_PUBLISHES.map((kind) => topicFor(Id, kind)),
    subscribes: DEVICE_SUBSCRIBES.map((kind) => topicFor(Id, kind)),
    mosquittoPub: `mosquitto_pub -h ${broker.host} -p ${broker.port}${tls} -u ${Id} -P '${secret}' -q ${TOPIC_QOS.status} -r -t ${status} -m online`,
  };
};
