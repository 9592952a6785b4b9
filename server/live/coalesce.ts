import type { DevicePatch, LiveEvent } from '../../src/domain/live';

/**
 * What one stream has yet to send (docs/live.md, "Coalescing"): one merged patch per device (the newest
 * value of each field wins) and every command outcome and message notice, each kept. Device patches are
 * bounded by the devices the viewer sees; outcomes and notices together by `maxCommands`, beyond which the
 * stream gives up on details and sends a reset instead.
 *
 * A message goes out under the seq of the earliest event merged into it, in that order: a client that
 * read up to a message and resumes after its id misses nothing, at worst it gets a patch again (patches
 * are idempotent; outcomes, one event each, never repeat).
 */

export interface Outgoing {
  seq: number;
  event: LiveEvent;
}

/** `newer` over `older`, field by field; a field absent (or undefined) in `newer` keeps its older value. */
export const mergePatch = (older: DevicePatch, newer: DevicePatch): DevicePatch => {
  const merged: Record<string, unknown> = { ...older };
  for (const [field, value] of Object.entries(newer)) if (value !== undefined) merged[field] = value;
  return merged as DevicePatch;
};

type DeviceEvent = Extract<LiveEvent, { type: 'device' }>;

export class Coalescer {
  private readonly devices = new Map<string, { seq: number; event: DeviceEvent }>();
  private commands: Outgoing[] = [];

  constructor(private readonly maxCommands: number) {}

  get size(): number {
    return this.devices.size + this.commands.length;
  }

  /** Adds an event; false when outcomes overflowed the bound (the caller resets the stream). */
  add(seq: number, event: LiveEvent): boolean {
    if (event.type !== 'device') {
      this.commands.push({ seq, event });
      return this.commands.length <= this.maxCommands;
    }
    const pending = this.devices.get(event.data.Id);
    if (pending === undefined) this.devices.set(event.data.Id, { seq, event });
    else pending.event = { type: 'device', data: mergePatch(pending.event.data, event.data) };
    return true;
  }

  /** Everything pending, oldest first; the coalescer is empty afterwards. */
  take(): Outgoing[] {
    const all = [...this.devices.values(), ...this.commands].sort((a, b) => a.seq - b.seq);
    this.clear();
    return all;
  }

  clear(): void {
    this.devices.clear();
    this.commands = [];
  }
}
