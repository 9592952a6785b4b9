import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../server/config';
import { FAULT_KINDS, parseFaults } from './faults';
import { parseOptions } from './options';

describe('simulator options', () => {
  it('defaults to the demo admin, the local server and its broker, no faults', () => {
    expect(parseOptions([], {})).toEqual({
      server: 'http://localhost:8080',
      mqtt: 'mqtt://localhost:1883',
      devices: 12,
      faults: [],
      faultRate: 1,
      speed: 1,
      seed: 1,
      dataDir: path.resolve('./data'),
      account: 'admin',
      password: DEMO_ADMIN_PASSWORD,
      apiPrefix: '/upstream',
    });
  });

  it('reads the command line and the environment', () => {
    const options = parseOptions(
      ['--devices', '200', '--server', 'http://127.0.0.1:9000/', '--faults', 'oxygen,offline,erd', '--fault-rate', '0.5', '--speed', '60', '--seed', '7'],
      { MQTT_PORT: '1884', ADMIN_ACCOUNT: 'root', ADMIN_PASSWORD: 'Root2026', DATA_DIR: '/tmp/sim', API_PREFIX: '/up' },
    );
    expect(options).toEqual({
      server: 'http://127.0.0.1:9000',
      mqtt: 'mqtt://127.0.0.1:1884',
      devices: 200,
      faults: ['oxygen', 'offline', 'erd'],
      faultRate: 0.5,
      speed: 60,
      seed: 7,
      dataDir: '/tmp/sim',
      account: 'root',
      password: 'Root2026',
      apiPrefix: '/up',
    });
    expect(parseOptions(['--mqtt', 'mqtt://broker:1883'], {})).toMatchObject({ mqtt: 'mqtt://broker:1883' });
    // --ca: over TLS, to the server's MQTT_TLS_PORT unless --mqtt says where.
    expect(parseOptions(['--ca', '/etc/oxygen/broker.crt'], {})).toMatchObject({ mqtt: 'mqtts://localhost:8883', ca: '/etc/oxygen/broker.crt' });
    expect(parseOptions(['--ca', 'ca.pem', '--server', 'http://console:8080'], { MQTT_TLS_PORT: '9883' })).toMatchObject({ mqtt: 'mqtts://console:9883' });
    expect(() => parseOptions(['--ca', 'ca.pem', '--mqtt', 'mqtt://broker:1883'], {})).toThrow('--ca applies to a broker over TLS: --mqtt must start with mqtts://');
    expect(parseOptions(['--help'], {})).toBe('help');
  });

  it('refuses what it cannot use, naming the option', () => {
    expect(() => parseOptions(['--devices', '0'], {})).toThrow('--devices must be a whole number from 1 to 10000 (got "0")');
    expect(() => parseOptions(['--devices', '2.5'], {})).toThrow('--devices');
    expect(() => parseOptions(['--speed', '0'], {})).toThrow('--speed');
    expect(() => parseOptions(['--faults', 'fire'], {})).toThrow('--faults: unknown fault "fire"');
    expect(() => parseOptions(['--server', 'nowhere'], {})).toThrow('--server must be a URL');
    expect(() => parseOptions(['--colour'], {})).toThrow(/colour/);
  });

  it('takes all, a list, or nothing for --faults', () => {
    expect(parseFaults('all')).toEqual([...FAULT_KINDS]);
    expect(parseFaults(' spo2, spo2 ,heartRate')).toEqual(['spo2', 'heartRate']);
    expect(parseFaults('')).toEqual([]);
  });
});
