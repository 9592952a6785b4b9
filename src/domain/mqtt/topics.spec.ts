import { describe, expect, it } from 'vitest';
import { lastWillFor } from './payloads';
import { DEVICE_PUBLISHES, DEVICE_SUBSCRIBES, TOPIC_KINDS, TOPIC_MAX, TOPIC_QOS, TOPIC_RETAIN, deviceMayPublish, deviceMaySubscribe, parseTopic, serverSubscriptions, topicFor } from './topics';

describe('topics', () => {
  it('builds and parses oc/{Id}/{kind} for every kind', () => {
    for (const kind of TOPIC_KINDS) {
      expect(topicFor('OC-BJ-001', kind)).toBe(`oc/OC-BJ-001/${kind}`);
      expect(parseTopic(`oc/OC-BJ-001/${kind}`)).toEqual({ deviceId: 'OC-BJ-001', kind });
    }
    expect(parseTopic(`oc/${'a'.repeat(32)}/telemetry`)).toEqual({ deviceId: 'a'.repeat(32), kind: 'telemetry' });
    expect(`oc/${'a'.repeat(32)}/telemetry`.length).toBe(TOPIC_MAX);
  });

  it('refuses everything else', () => {
    const bad = [
      '',
      'oc',
      'oc/OC-BJ-001',
      'oc/OC-BJ-001/',
      'oc//telemetry',
      'oc/OC-BJ-001/readings',
      'oc/OC-BJ-001/Telemetry',
      'OC/OC-BJ-001/telemetry',
      '/oc/OC-BJ-001/telemetry',
      'oc/OC-BJ-001/telemetry/',
      'oc/OC-BJ-001/telemetry/extra',
      'oc/+/telemetry',
      'oc/#',
      'oc/OC BJ/telemetry',
      'oc/OC.BJ/telemetry',
      'oc/设备/telemetry',
      '$share/oxygen/oc/+/telemetry',
      '$share/oxygen/oc/OC-BJ-001/telemetry',
      `oc/${'a'.repeat(33)}/telemetry`,
      'x'.repeat(100_000),
    ];
    for (const topic of bad) expect(parseTopic(topic), topic).toBeNull();
  });

  it('refuses to build a topic for something that is not a device Id', () => {
    for (const id of ['', 'a/b', '+', '#', 'a b', 'a'.repeat(33)]) expect(() => topicFor(id, 'cmd')).toThrow(RangeError);
  });

  it('QoS 1 everywhere, status alone retained; the last will is a retained offline', () => {
    expect(TOPIC_QOS).toEqual({ telemetry: 1, event: 1, status: 1, cmd: 1, ack: 1 });
    expect(TOPIC_RETAIN).toEqual({ telemetry: false, event: false, status: true, cmd: false, ack: false });
    expect(lastWillFor('OC-BJ-001')).toEqual({ topic: 'oc/OC-BJ-001/status', payload: 'offline', qos: 1, retain: true });
  });

  it('a device publishes on its own telemetry, event, status and ack and subscribes to its own cmd only', () => {
    expect([...DEVICE_PUBLISHES]).toEqual(['telemetry', 'event', 'status', 'ack']);
    expect([...DEVICE_SUBSCRIBES]).toEqual(['cmd']);
    for (const kind of DEVICE_PUBLISHES) {
      expect(deviceMayPublish('OC-BJ-001', `oc/OC-BJ-001/${kind}`)).toBe(true);
      expect(deviceMayPublish('OC-BJ-001', `oc/OC-BJ-002/${kind}`)).toBe(false);
    }
    expect(deviceMayPublish('OC-BJ-001', 'oc/OC-BJ-001/cmd')).toBe(false);
    expect(deviceMayPublish('OC-BJ-001', 'oc/OC-BJ-001/other')).toBe(false);
    expect(deviceMaySubscribe('OC-BJ-001', 'oc/OC-BJ-001/cmd')).toBe(true);
    for (const filter of ['oc/OC-BJ-002/cmd', 'oc/+/cmd', 'oc/#', '#', 'oc/OC-BJ-001/+', 'oc/OC-BJ-001/telemetry', '$share/x/oc/OC-BJ-001/cmd']) {
      expect(deviceMaySubscribe('OC-BJ-001', filter), filter).toBe(false);
    }
    expect(deviceMaySubscribe('a/b', 'oc/a/b/cmd')).toBe(false);
  });

  it('the server shares the device-published topics in one group', () => {
    expect(serverSubscriptions()).toEqual([
      '$share/oxygen/oc/+/telemetry',
      '$share/oxygen/oc/+/event',
      '$share/oxygen/oc/+/status',
      '$share/oxygen/oc/+/ack',
    ]);
  });
});
