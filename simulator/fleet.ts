import { readFileSync } from 'node:fs';
import { CMD_ID_MAX, CMD_ID_PATTERN } from '../src/domain/commands';
import { commandSchema, type Ack } from '../src/domain/mqtt/payloads';
import { seededRandomFor } from '../src/domain/random';
import { ServerApi, type DeviceRecord, type Log } from './api';
import { BookingPlan, refreshBookings, type Booking } from './bookings';
import { Chamber, type Emission, type Settings } from './chamber';
import { ChamberConnection } from './connection';
import { Credentials, SecretStore, secretsFile } from './credentials';
import type { FaultKind } from './faults';
import { ratedMaxAtaIn, type RatedMaxima } from '../src/domain/deviceTypes';

/**
 * The simulator: signs in as an administrator, takes the first N devices of the fleet (registering
 * SIM-0001… when there are fewer), gets each a secret, and runs each as a Chamber behind its own MQTT
 * connection. One timer steps every chamber once a second, spread over ten slots; another watches the
 * bookings. docs/simulator.md.
 */

export interface SimulatorOptions {
  server: string;
  mqtt: string;
  /** A PEM file of the certificate (or CA) to trust for an mqtts:// broker. */
  ca?: string;
  devices: number;
  faults: readonly FaultKind[];
  /** Faults per chamber per hour. */
  faultRate: number;
  speed: number;
  seed: number;
  dataDir: string;
  account: string;
  password: string;
  apiPrefix: string;
  log: Log;
  /** How often the orders are read (ms); default 10 s. */
  bookingPollMs?: number;
  /** A guest who learns of a booking already open arrives this many seconds later; default 2–20. */
  startDelay?: readonly [number, number];
  /** How often a summary line is logged (ms); default 60 s, 0 for never. */
  summaryMs?: number;
}

export interface RunningSimulator {
  chambers: ReadonlyMap<string, Chamber>;
  /** Clean goodbyes (`offline`, DISCONNECT) from every chamber. */
  stop(): Promise<void>;
}

const TICK_MS = 100;
const SLOTS = 10;
/** Chambers connecting at once at start. */
const CONNECT_BATCH = 20;
const SECRET_RETRY_MS = 10_000;

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Registered chambers: `SIM-0001`, a name and a site in the demo's style. */
const simulatedDevice = (index: number) => {
  const number = String(index).padStart(4, '0');
  return { Id: `SIM-${number}`, name: `仿真 ${index} 号舱`, Type: ((index - 1) % 5) + 1, Location: '仿真测试中心' };
};

/**
 * The first `count` devices by Id, registering SIM-nnnn ones while there are too few. A new device starts
 * closed; it is opened for use (`registered`) once its chamber listens for commands, so that the chamber
 * receives and acknowledges that first command instead of letting it time out.
 */
const prepareFleet = async (api: ServerApi, credentials: Credentials, count: number, log: Log): Promise<{ fleet: DeviceRecord[]; registered: Set<string> }> => {
  const all = await api.devices();
  const fleet = all.slice(0, count);
  const taken = new Set(all.map((device) => device.Id));
  const registered = new Set<string>();
  for (let index = 1; fleet.length < count; index += 1) {
    const device = simulatedDevice(index);
    if (taken.has(device.Id)) continue;
    credentials.save(device.Id, await api.registerDevice(device));
    registered.add(device.Id);
    fleet.push({ Id: device.Id, Type: device.Type, State: 'Stop', Permission: 'Close', OrderNum: null, Emergency: false });
  }
  log.info(`fleet: ${fleet.length} chambers (${fleet.length - registered.size} existing, ${registered.size} registered)`);
  return { fleet, registered };
};

/**
 * A chamber as the server sees it: a running order is resumed from its last reading; its set point stays
 * within its type's rating as the server holds it (`maxima`).
 */
const chamberFor = async (api: ServerApi, device: DeviceRecord, maxima: RatedMaxima, options: SimulatorOptions): Promise<Chamber> => {
  const running = device.OrderNum !== null && device.OrderNum !== undefined;
  const last = running ? await api.lastReading(device.Id) : undefined;
  // The settings the session runs with, as far as its last reading says.
  const settings = Object.fromEntries(
    Object.entries({ SP: last?.SP, ST: last?.ST, SS: last?.SS, SL: last?.SL, SA: last?.SA }).filter(([, value]) => value !== null && value !== undefined),
  ) as Partial<Settings>;
  return new Chamber({
    id: device.Id,
    seed: options.seed,
    speed: options.speed,
    faults: options.faults,
    faultRate: options.faultRate,
    settings,
    ratedMaxAta: ratedMaxAtaIn(maxima, device.Type ?? undefined),
    permission: device.Permission ?? 'Close',
    state: device.State ?? 'Stop',
    emergency: device.Emergency === true,
    ...(running ? { resume: { pressure: last?.RCP ?? undefined, remainingMinutes: last?.RRD ?? undefined } } : {}),
  });
};

const readCa = (file: string): Buffer => {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`--ca ${file} cannot be read: ${message(error)}`, { cause: error });
  }
};

export const runSimulator = async (options: SimulatorOptions): Promise<RunningSimulator> => {
  const { log } = options;
  // Read once, before anything else: a file that cannot be read stops the simulator at start.
  const ca = options.ca === undefined ? undefined : readCa(options.ca);
  const api = new ServerApi(options.server, options.account, options.password, options.apiPrefix);
  await api.signIn();
  const credentials = new Credentials(SecretStore.load(secretsFile(options.dataDir), options.server), api);
  const { fleet, registered } = await prepareFleet(api, credentials, options.devices, log);

  const maxima = await api.ratedMaxima();
  const chambers = new Map<string, Chamber>();
  for (const device of fleet) chambers.set(device.Id, await chamberFor(api, device, maxima, options));
  const ids = [...chambers.keys()];
  const connections = new Map<string, ChamberConnection>();
  const faults = new Map<string, FaultKind | null>();
  let stopped = false;

  const publish = (id: string, emissions: readonly Emission[]): void => {
    const connection = connections.get(id);
    if (connection === undefined) return;
    for (const emission of emissions) {
      switch (emission.kind) {
        case 'telemetry':
          connection.telemetry(emission.message);
          break;
        case 'event':
          connection.event(emission.message);
          if (emission.message.type === 'sessionEnd') log.info(`${id}: session ended`);
          if (emission.message.type === 'emergency') log.info(`${id}: emergency depressurisation ${emission.message.active ? 'started' : 'ended'}`);
          break;
        case 'drop':
          log.info(`${id}: connection dropped (fault), the broker publishes its last will`);
          connection.drop();
          break;
        case 'return':
          log.info(`${id}: back online`);
          connection.restore();
          break;
      }
    }
  };

  const onCommand = (id: string, chamber: Chamber, payload: Buffer): void => {
    const connection = connections.get(id);
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      json = undefined;
    }
    const parsed = commandSchema.safeParse(json);
    if (parsed.success) {
      const ack = chamber.command(parsed.data, Date.now());
      connection?.ack(ack);
      log.info(`${id}: ${parsed.data.type} command ${ack.ok ? 'applied' : `refused (${ack.error ?? ''})`}`);
      return;
    }
    // A command the chamber cannot read is refused when it at least names itself; otherwise there is nobody to answer.
    const cmdId = (json as { cmdId?: unknown } | undefined)?.cmdId;
    if (typeof cmdId === 'string' && cmdId.length <= CMD_ID_MAX && CMD_ID_PATTERN.test(cmdId)) {
      const refusal: Ack = { cmdId, ok: false, error: 'invalid command' };
      connection?.ack(refusal);
    }
    log.warn(`${id}: unreadable command ignored`);
  };

  const connect = async (id: string, chamber: Chamber): Promise<void> => {
    let secret: string | undefined;
    while (secret === undefined) {
      if (stopped) return;
      // A server that fails a rotation now (restarting, say) is asked again, not given up on.
      secret = await credentials.secretFor(id).catch((error: unknown) => {
        log.warn(`${id}: no secret yet (${message(error)}), trying again in ${SECRET_RETRY_MS / 1000} s`);
        return new Promise<undefined>((resolve) => setTimeout(resolve, SECRET_RETRY_MS));
      });
    }
    if (stopped) return;
    const connection = new ChamberConnection({
      url: options.mqtt,
      ca,
      deviceId: id,
      secret,
      renewSecret: () => {
        log.warn(`${id}: the broker refused its secret, rotating it`);
        return credentials.renew(id);
      },
      onCommand: (payload) => onCommand(id, chamber, payload),
      onConnect: () => publish(id, chamber.connected(Date.now())),
      onSubscribed: () => {
        // The administrator who registered it puts it into service, now that it hears the command.
        if (!registered.delete(id)) return;
        api.openDevice(id).catch((error: unknown) => log.warn(`${id}: registered but not opened for use (${message(error)})`));
      },
      onProblem: (problem) => log.warn(`${id}: ${problem}`),
    });
    connections.set(id, connection);
  };

  // Connect in batches, so a large fleet's first rotations and CONNECTs do not all land at once. A
  // connection not made when the simulator stops is never made (connect checks `stopped`).
  void (async () => {
    for (let start = 0; start < ids.length && !stopped; start += CONNECT_BATCH) {
      await Promise.all(
        ids.slice(start, start + CONNECT_BATCH).map((id) => {
          const chamber = chambers.get(id);
          return chamber === undefined ? undefined : connect(id, chamber);
        }),
      );
    }
  })();

  // Bookings: which guests arrive when; a start is tried on a connected, idle, open chamber.
  const plan = new BookingPlan(seededRandomFor(`${options.seed}:bookings`), options.startDelay ?? [2, 20]);
  const startDue = (now: number): void => {
    for (const booking of plan.due(now)) {
      const chamber = chambers.get(booking.deviceId);
      if (chamber === undefined || connections.get(booking.deviceId)?.connected !== true || chamber.canStart() !== null) continue;
      publish(booking.deviceId, chamber.startSession(booking.oc, now));
      plan.started(booking, now);
      log.info(`${booking.deviceId}: session started for booking ${booking.orderNum} (OC ${booking.oc})`);
    }
    for (const booking of plan.abandoned(now)) {
      log.info(`${booking.deviceId}: booking ${booking.orderNum} not started (chamber ${chambers.get(booking.deviceId)?.canStart() ?? 'unavailable'})`);
    }
  };
  const endRefused = (booking: Booking): void => {
    const chamber = chambers.get(booking.deviceId);
    log.warn(`${booking.deviceId}: the server did not mark booking ${booking.orderNum} used; ending the session`);
    if (chamber?.view().oc === booking.oc) chamber.finishSession();
  };
  let polling = false;
  const poll = async (): Promise<void> => {
    if (polling || stopped) return;
    polling = true;
    try {
      const now = Date.now();
      const { added, refused } = await refreshBookings(api, plan, ids, now);
      for (const booking of added) log.info(`${booking.deviceId}: booking ${booking.orderNum} planned (SetT ${new Date(booking.setT).toISOString()})`);
      for (const booking of refused) endRefused(booking);
    } catch (error) {
      log.warn(`bookings: ${message(error)}`);
    } finally {
      polling = false;
    }
  };
  void poll();
  const pollTimer = setInterval(() => void poll(), options.bookingPollMs ?? 10_000);

  // Steps: chamber i in slot i mod 10, each slot 100 ms after the previous, so telemetry is spread over the second.
  const lastStep = new Map<string, number>(ids.map((id) => [id, Date.now()]));
  let tick = 0;
  const stepTimer = setInterval(() => {
    const slot = tick % SLOTS;
    tick += 1;
    const now = Date.now();
    if (slot === 0) startDue(now);
    ids.forEach((id, index) => {
      if (index % SLOTS !== slot) return;
      const chamber = chambers.get(id);
      if (chamber === undefined || !connections.has(id)) return;
      const dt = (now - (lastStep.get(id) ?? now)) / 1000;
      lastStep.set(id, now);
      publish(id, chamber.step(dt, now));
      const fault = chamber.view().fault;
      if (fault !== (faults.get(id) ?? null)) {
        if (fault !== null) log.info(`${id}: fault ${fault}`);
        faults.set(id, fault);
      }
    });
  }, TICK_MS);

  const summaryMs = options.summaryMs ?? 60_000;
  const summaryTimer =
    summaryMs > 0
      ? setInterval(() => {
          const views = [...chambers.values()].map((chamber) => chamber.view());
          const online = [...connections.values()].filter((connection) => connection.connected).length;
          const inSession = views.filter((view) => view.phase !== 'idle').length;
          const faulty = views.filter((view) => view.fault !== null).length;
          log.info(`${chambers.size} chambers: ${online} connected, ${inSession} in session, ${faulty} with a fault`);
        }, summaryMs)
      : undefined;

  return {
    chambers,
    stop: async () => {
      stopped = true;
      clearInterval(stepTimer);
      clearInterval(pollTimer);
      clearInterval(summaryTimer);
      await Promise.all([...connections.values()].map((connection) => connection.close()));
    },
  };
};
