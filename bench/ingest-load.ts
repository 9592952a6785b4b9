import { topicFor } from '../src/domain/mqtt/topics';
import { openChamberLink, type ChamberLink } from './chamber-link';

/**
 * The chambers of `npm run bench:ingest`, in their own process (forked by bench/ingest.ts, so they never
 * share the measuring process's event loop): one MQTT connection per device (./chamber-link.ts: as
 * docs/mqtt.md has a device connect, on a bare socket), retained online on connect. Driven by IPC messages:
 *
 *   { type: 'connect', url, devices, publish }  connect every device (`publish`: false for idle ones)
 *   { type: 'run', mode, ratePerSecond, seconds } publish QoS 1 telemetry:
 *       open   at ratePerSecond in total, spread over the publishing devices in turn (a fixed schedule:
 *              a server that cannot keep up shows it in acknowledgement latency)
 *       max    each publishing device publishes its next reading as soon as the last one is acknowledged
 *   { type: 'disconnect' }                         end every connection
 *   { type: 'stop' }                               end every connection and exit
 *
 * Answers { type: 'connected', seconds } and { type: 'ran', sent, acked, failed, seconds, ackMs } where
 * ackMs are publish-to-PUBACK latencies' percentiles.
 */

export interface BenchDevice {
  id: string;
  secret: string;
}

export type LoadCommand =
  | { type: 'connect'; url: string; devices: BenchDevice[]; publish: boolean }
  | { type: 'run'; mode: 'open' | 'max'; ratePerSecond: number; seconds: number }
  | { type: 'disconnect' }
  | { type: 'stop' };

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export type LoadAnswer =
  | { type: 'connected'; clients: number; seconds: number }
  | { type: 'disconnected' }
  | { type: 'ran'; sent: number; acked: number; failed: number; seconds: number; ackMs: Percentiles; cpuShare: number }
  | { type: 'error'; message: string };

export const percentiles = (values: Float64Array | number[]): Percentiles => {
  const sorted = Float64Array.from(values).sort();
  const at = (share: number): number => (sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0));
  const round = (value: number): number => Math.round(value * 10) / 10;
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted.length === 0 ? 0 : (sorted[sorted.length - 1] ?? 0)) };
};

export interface Chamber {
  id: string;
  link: ChamberLink;
  topic: string;
  lastTime: number;
  publishes: boolean;
}

const chambers: Chamber[] = [];
const send = (answer: LoadAnswer): void => {
  process.send?.(answer);
};

/**
 * A full reading at `time` with realistic values, all of them inside every alarm rule's bands
 * (docs/alarms.md) unless `oxygen` (RCPi02, %) says otherwise.
 */
export const telemetry = (time: number, oxygen?: number): string => {
  const wobble = (time % 1000) / 1000;
  return JSON.stringify({
    Time: time,
    SP: 1.5,
    ST: 60,
    SS: 'M',
    RCP: Math.round((1.48 + wobble * 0.04) * 1000) / 1000,
    RRD: 42,
    RCPi02: oxygen ?? Math.round((21.4 + wobble * 0.6) * 100) / 100,
    RGPi02: 93.2,
    RCT: 23.1,
    RCRH: 61.5,
    HmHR: 72,
    HmSP02: 98,
    HmBP: '118/76',
  });
};

/** The next reading of `chamber`; Time strictly increasing per device (a reading is its device and Time). */
const reading = (chamber: Chamber): string => {
  const time = Math.max(Date.now(), chamber.lastTime + 1);
  chamber.lastTime = time;
  return telemetry(time);
};

/** One chamber's MQTT connection, as docs/mqtt.md has a device connect (also bench:alarms' alarm chambers). */
export const connectChamber = async (url: string, device: BenchDevice, publishes: boolean): Promise<Chamber> => {
  const link = await openChamberLink(url, device.id, device.secret);
  link.publish(topicFor(device.id, 'status'), 'online', { retain: true });
  return { id: device.id, link, topic: topicFor(device.id, 'telemetry'), lastTime: 0, publishes };
};

const connectAll = async (url: string, devices: BenchDevice[], publish: boolean): Promise<number> => {
  const started = performance.now();
  const CONCURRENT = 50;
  for (let from = 0; from < devices.length; from += CONCURRENT) {
    chambers.push(...(await Promise.all(devices.slice(from, from + CONCURRENT).map((device) => connectChamber(url, device, publish)))));
  }
  return (performance.now() - started) / 1000;
};

const run = async (mode: 'open' | 'max', ratePerSecond: number, seconds: number): Promise<LoadAnswer> => {
  const publishing = chambers.filter((chamber) => chamber.publishes);
  if (publishing.length === 0) throw new Error('no publishing devices are connected');
  const latencies: number[] = [];
  let sent = 0;
  let acked = 0;
  let failed = 0;
  let outstanding = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const endsAt = started + seconds * 1000;

  const publishOne = (chamber: Chamber, next?: () => void): void => {
    const at = performance.now();
    sent += 1;
    outstanding += 1;
    chamber.link.publish(chamber.topic, reading(chamber), {
      onAck: (error) => {
        outstanding -= 1;
        if (error === undefined) {
          acked += 1;
          latencies.push(performance.now() - at);
        } else failed += 1;
        next?.();
      },
    });
  };

  if (mode === 'max') {
    const loop = (chamber: Chamber) => (): void => {
      if (performance.now() < endsAt) publishOne(chamber, loop(chamber));
    };
    for (const chamber of publishing) publishOne(chamber, loop(chamber));
  }
  let turn = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      if (mode === 'open') {
        const due = Math.floor(((Math.min(now, endsAt) - started) / 1000) * ratePerSecond);
        for (; sent < due; turn += 1) {
          const chamber = publishing[turn % publishing.length];
          if (chamber !== undefined) publishOne(chamber);
        }
      }
      // Done once the time is up and every publish is answered (or 30 s more have passed).
      if ((now >= endsAt && outstanding === 0) || now >= endsAt + 30_000) {
        clearInterval(tick);
        resolve();
      }
    }, 5);
  });
  const took = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  // Near 1, the chambers' own process is the bottleneck, and what it measures includes its own delays.
  const cpuShare = Math.round(((cpu.user + cpu.system) / 1e6 / took) * 100) / 100;
  return { type: 'ran', sent, acked, failed, seconds: took, ackMs: percentiles(latencies), cpuShare };
};

process.on('message', (command: LoadCommand) => {
  const answer = async (): Promise<LoadAnswer | undefined> => {
    if (command.type === 'connect') {
      const seconds = await connectAll(command.url, command.devices, command.publish);
      return { type: 'connected', clients: chambers.length, seconds };
    }
    if (command.type === 'run') return run(command.mode, command.ratePerSecond, command.seconds);
    await Promise.all(chambers.splice(0).map((chamber) => chamber.link.end()));
    if (command.type === 'stop') process.exit(0);
    return { type: 'disconnected' };
  };
  answer().then(
    (result) => result !== undefined && send(result),
    (error: unknown) => send({ type: 'error', message: error instanceof Error ? error.message : String(error) }),
  );
});
