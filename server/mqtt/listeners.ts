import { readFile } from 'node:fs/promises';
import type { MqttTarget } from '../config';
import type { EmbeddedBrokerOptions } from './config';

type Embedded = Extract<MqttTarget, { kind: 'embedded' }>;

const readPem = async (variable: 'MQTT_TLS_CERT' | 'MQTT_TLS_KEY', file: string): Promise<Buffer> => {
  try {
    return await readFile(file);
  } catch (error) {
    throw new Error(`${variable} ${file} cannot be read: ${(error as Error).message}`, { cause: error });
  }
};

/**
 * The embedded broker's listeners and limits from the configuration (docs/mqtt.md, "TLS"): the plain one on
 * MQTT_HOST:MQTT_PORT, the TLS one on MQTT_HOST:MQTT_TLS_PORT with the files MQTT_TLS_CERT and MQTT_TLS_KEY
 * (read here, at start: one that cannot be read stops the server, naming it). With MQTT_PLAIN=off and
 * cluster workers, the plain listener stays, on 127.0.0.1 only: the workers reach the primary's broker
 * there, over a connection that never leaves the machine.
 */
export const brokerListeners = async (
  target: Embedded,
  workers: number,
): Promise<Pick<EmbeddedBrokerOptions, 'port' | 'host' | 'plain' | 'tls' | 'limits'>> => {
  const plain = target.plain || workers > 1;
  const tls =
    target.tls === null
      ? undefined
      : { port: target.tls.port, host: target.host, cert: await readPem('MQTT_TLS_CERT', target.tls.certFile), key: await readPem('MQTT_TLS_KEY', target.tls.keyFile) };
  return { port: target.port, host: target.plain ? target.host : '127.0.0.1', plain, tls, limits: target.limits };
};
