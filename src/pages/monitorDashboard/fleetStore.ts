import type { AlarmsByDevice } from '../../domain/alarms/open';
import type { AlarmRecord } from '../../domain/alarms/record';
import type { DevicePatch } from '../../domain/live';
import type { FleetDevice } from './fleetLayout';

/** The sparkline's span, and the spacing of the points it keeps (the newest point always shows). */
export const TRACE_SPAN_MS = 15 * 60_000;
const TRACE_STEP_MS = 5_000;

/** A chamber's cabin pressure over the last 15 minutes, from the live readings: times and values, oldest first. */
export interface PressureTrace {
  times: number[];
  values: number[];
}

/** The fields whose change may move a tile to another group or filter: the grid is laid out again. */
const LAYOUT_FIELDS = ['Location', 'Type', 'State', 'Online', 'SessionOC', 'Emergency'] as const;

type Listener = () => void;

const NO_ALARMS: readonly AlarmRecord[] = [];

/** What of a chamber's alarms moves it in the grid (urgency, the "in alarm" filter): none, high, or another priority. */
const alarmRank = (alarms: readonly AlarmRecord[] | undefined): string => alarms?.[0]?.priority ?? 'none';

/**
 * The dashboard's chambers outside react-admin's query cache, so that a live patch re-renders the one tile
 * that subscribed to its device (useSyncExternalStore) and not the grid: the grid subscribes only to the
 * layout, which a reading never changes.
 */
export class FleetStore {
  private readonly devices = new Map<string, FleetDevice>();
  /** Each chamber's trace, changed in place as readings come; `pressure` answers a copy. */
  private readonly traces = new Map<string, PressureTrace>();
  /** The copies answered, each until its trace changes: most chambers' tiles are off screen and never ask. */
  private readonly traceCopies = new Map<string, PressureTrace>();
  private readonly deviceListeners = new Map<string, Set<Listener>>();
  private readonly layoutListeners = new Set<Listener>();
  private layoutVersion = 0;
  private standing: AlarmsByDevice = new Map();

  /** The whole scope as the device list answered it; the traces of chambers still there are kept. */
  load(records: readonly FleetDevice[]): void {
    const ids = new Set(records.map((record) => record.Id));
    for (const id of this.traces.keys()) if (!ids.has(id)) this.traces.delete(id);
    this.traceCopies.clear();
    this.devices.clear();
    for (const record of records) {
      this.devices.set(record.Id, record);
      this.trace(record);
    }
    this.moveLayout();
    this.deviceListeners.forEach((listeners) => listeners.forEach((listener) => listener()));
  }

  /**
   * Each chamber's standing alarms, as the tab holds them (a device's list is the same array while its
   * alarms stay the same): tells the tiles whose alarms changed, and the layout when a chamber gains or
   * loses an alarm or its most urgent priority changes.
   */
  setAlarms(standing: AlarmsByDevice): void {
    const before = this.standing;
    if (standing === before) return;
    this.standing = standing;
    const changed = [...new Set([...before.keys(), ...standing.keys()])].filter((id) => before.get(id) !== standing.get(id));
    // Before the scope's first load the grid is not laid out at all.
    if (this.layoutVersion > 0 && changed.some((id) => alarmRank(before.get(id)) !== alarmRank(standing.get(id)))) this.moveLayout();
    for (const id of changed) this.deviceListeners.get(id)?.forEach((listener) => listener());
  }

  /** Merges a live patch (newest field wins, an absent field stays); a device outside the loaded scope is ignored. */
  patch(patch: DevicePatch): void {
    const current = this.devices.get(patch.Id);
    if (current === undefined) return;
    const next: FleetDevice = { ...current };
    for (const [field, value] of Object.entries(patch)) if (value !== undefined) (next as Record<string, unknown>)[field] = value;
    this.devices.set(patch.Id, next);
    this.trace(next);
    if (LAYOUT_FIELDS.some((field) => next[field] !== current[field])) this.moveLayout();
    this.deviceListeners.get(patch.Id)?.forEach((listener) => listener());
  }

  device = (id: string): FleetDevice | undefined => this.devices.get(id);

  all = (): Iterable<FleetDevice> => this.devices.values();

  get size(): number {
    return this.devices.size;
  }

  /** The chamber's trace: the same object until a reading changes it, so a sparkline sees each change. */
  pressure = (id: string): PressureTrace | undefined => {
    const copy = this.traceCopies.get(id);
    if (copy !== undefined) return copy;
    const trace = this.traces.get(id);
    if (trace === undefined) return undefined;
    const fresh = { times: [...trace.times], values: [...trace.values] };
    this.traceCopies.set(id, fresh);
    return fresh;
  };

  /** The chamber's standing alarms, most urgent first; the same array while they stay the same. */
  alarms = (id: string): readonly AlarmRecord[] => this.standing.get(id) ?? NO_ALARMS;

  layout = (): number => this.layoutVersion;

  subscribeDevice(id: string, listener: Listener): () => void {
    let listeners = this.deviceListeners.get(id);
    if (listeners === undefined) this.deviceListeners.set(id, (listeners = new Set()));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.deviceListeners.delete(id);
    };
  }

  subscribeLayout = (listener: Listener): (() => void) => {
    this.layoutListeners.add(listener);
    return () => this.layoutListeners.delete(listener);
  };

  private moveLayout(): void {
    this.layoutVersion += 1;
    this.layoutListeners.forEach((listener) => listener());
  }

  /** Adds the record's reading to its chamber's trace: one point per step, the last one moving with the newest. */
  private trace(device: FleetDevice): void {
    const reading = device.Reading;
    if (reading?.RCP === undefined) return;
    let trace = this.traces.get(device.Id);
    if (trace === undefined) this.traces.set(device.Id, (trace = { times: [], values: [] }));
    const { times } = trace;
    const last = times.length - 1;
    if (reading.Time <= (times[last] ?? -Infinity)) return;
    // The newest point replaces the last one until a step has passed since the one before.
    const keep = reading.Time - (times[last - 1] ?? -Infinity) < TRACE_STEP_MS ? last : last + 1;
    const since = reading.Time - TRACE_SPAN_MS;
    let from = 0;
    while (from < keep && (times[from] ?? Infinity) < since) from += 1;
    // In place: new arrays per reading copied every chamber's trace each second, for the few tiles on screen.
    times[keep] = reading.Time;
    trace.values[keep] = reading.RCP;
    times.length = keep + 1;
    trace.values.length = keep + 1;
    times.splice(0, from);
    trace.values.splice(0, from);
    this.traceCopies.delete(device.Id);
  }
}
