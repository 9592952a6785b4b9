import mqtt, { type MqttClient } from 'mqtt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedBroker } from '../server/mqtt/broker';
import { newServerCredentials, type EmbeddedBroker } from '../server/mqtt/config';
import { silentBrokerLog } from '../tests/server/captured-log';
import { ChamberConnection } from './connection';

/**
 * One chamber's connection against the server's embedded broker (aedes, port 0), with a fake secret
 * check: what the broker and the server see of it.
 */

const ID = 'SIM-0001';
const SERVER = newServerCredentials();

let broker: EmbeddedBroker;
let observer: MqttClient;
const secret = 'current-secret';
const seen: { topic: string; payload: string }[] = [];
const connections: ChamberConnection[] = [];

const eventually = async (check: () => boolean, what: string): Promise<void> => {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(seen)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const payloadsOn = (topic: string) => seen.filter((message) => message.topic === topic).map((message) => message.payload);

beforeEach(async () => {
  broker = await startEmbeddedBroker({
    port: 0,
    host: '127.0.0.1',
    authenticate: async (id, given) => id === ID && given === secret,
    serverCredentials: SERVER,
    log: silentBrokerLog,
  });
  seen.length = 0;
  observer = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { ...SERVER, clientId: 'oxygen.server.test', reconnectPeriod: 0 });
  observer.on('message', (topic, payload) => seen.push({ topic, payload: payload.toString() }));
  await observer.subscribeAsync(['oc/+/status', 'oc/+/ack', 'oc/+/event'], { qos: 1 });
});

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  await observer.endAsync();
  await broker.close();
});

const open = (initial: string, renew: () => Promise<string>, onCommand: (payload: Buffer) => void = () => undefined) => {
  const problems: string[] = [];
  const connection = new ChamberConnection({
    url: `mqtt://127.0.0.1:${broker.port}`,
    deviceId: ID,
    secret: initial,
    renewSecret: renew,
    onCommand,
    onConnect: () => undefined,
    onProblem: (problem) => problems.push(problem),
  });
  connections.push(connection);
  return { connection, problems };
};

describe('a chamber connection', () => {
  it('rotates a refused secret, connects, says online, receives its commands and acknowledges them', async () => {
    let renewals = 0;
    const commands: string[] = [];
    const { connection } = open(
      'stale-secret',
      async () => {
        renewals += 1;
        return secret;
      },
      (payload) => commands.push(payload.toString()),
    );
    await eventually(() => connection.connected, 'the connection');
    expect(renewals).toBe(1);
    await eventually(() => payloadsOn(`oc/${ID}/status`).includes('online'), 'online');

    const command = '{"cmdId":"c1","type":"permission","Time":1767600010000,"Permission":"Open"}';
    // The subscription is sent right after CONNACK: give the broker its SUBACK before publishing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await observer.publishAsync(`oc/${ID}/cmd`, command, { qos: 1 });
    await eventually(() => commands.length === 1, 'the command');
    expect(commands).toEqual([command]);
    connection.ack({ cmdId: 'c1', ok: true });
    await eventually(() => payloadsOn(`oc/${ID}/ack`).length === 1, 'the ack');
    expect(JSON.parse(payloadsOn(`oc/${ID}/ack`)[0] ?? '')).toEqual({ cmdId: 'c1', ok: true });
  });

  it('drops without DISCONNECT (the broker publishes the last will), comes back, and says goodbye cleanly', async () => {
    const { connection } = open(secret, async () => secret);
    await eventually(() => payloadsOn(`oc/${ID}/status`).includes('online'), 'online');

    connection.drop();
    await eventually(() => payloadsOn(`oc/${ID}/status`).at(-1) === 'offline', 'the last will');
    expect(connection.connected).toBe(false);
    // Telemetry while away is not kept; events wait for the connection.
    connection.telemetry({ Time: Date.now(), RCP: 1 });
    connection.restore();
    await eventually(() => connection.connected && payloadsOn(`oc/${ID}/status`).at(-1) === 'online', 'online again');
    connection.event({ type: 'sessionEnd', Time: Date.now() });
    await eventually(() => payloadsOn(`oc/${ID}/event`).length === 1, 'the event');

    const before = payloadsOn(`oc/${ID}/status`).length;
    await connection.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Its own offline, and no last will after it.
    expect(payloadsOn(`oc/${ID}/status`).slice(before)).toEqual(['offline']);
  });
});
