import { connectChamber, telemetry, type BenchDevice, type Chamber } from './ingest-load';

/**
 * The chambers of bench:alarms that raise the alarms, in the measuring process (a reading a second
 * each, light beside the load's process): normal readings a second apart from the start, and in a
 * chamber's turn high oxygen readings until it is calmed. Each high reading carries its own RCPi02 (a
 * hundredth more than the one before), so the alarm's `value` names the reading that raised it.
 */

const PERIOD_MS = 1000;

/** A high oxygen reading sent: its Time (the moment it was published) and its RCPi02. */
export interface SentReading {
  time: number;
  oxygen: number;
}

export interface AlarmChamber {
  id: string;
  /**
   * High readings from `from` % up, from the next tick of its second on (restarting the clock would
   * jump the simulated pressure's phase, which the pressure-rate rule reads as a change); answers, once
   * the first is sent, the list they are added to.
   */
  raise: (from: number) => Promise<SentReading[]>;
  /** Back to normal readings. */
  calm: () => void;
  close: () => Promise<void>;
}

const startChamber = (chamber: Chamber): AlarmChamber => {
  let high: { from: number; sent: SentReading[]; started: (sent: SentReading[]) => void } | undefined;
  const publish = (): void => {
    const time = Math.max(Date.now(), chamber.lastTime + 1);
    chamber.lastTime = time;
    const oxygen = high === undefined ? undefined : Math.round((high.from + high.sent.length / 100) * 100) / 100;
    chamber.link.publish(chamber.topic, telemetry(time, oxygen));
    if (high === undefined || oxygen === undefined) return;
    high.sent.push({ time, oxygen });
    if (high.sent.length === 1) high.started(high.sent);
  };
  const timer = setInterval(publish, PERIOD_MS);
  return {
    id: chamber.id,
    raise: (from) =>
      new Promise((resolve) => {
        high = { from, sent: [], started: resolve };
      }),
    calm: () => {
      high = undefined;
    },
    close: async () => {
      clearInterval(timer);
      await chamber.link.end();
    },
  };
};

/** Connects `devices` to the broker at `url`, each publishing a normal reading a second. */
export const connectAlarmChambers = async (url: string, devices: readonly BenchDevice[]): Promise<AlarmChamber[]> =>
  (await Promise.all(devices.map((device) => connectChamber(url, device, true)))).map(startChamber);
