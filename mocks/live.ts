import { http, HttpResponse } from 'msw';
import { CODES } from '../src/domain/envelope';
import type { LiveEvent } from '../src/domain/live';
import type { Telemetry } from '../src/domain/mqtt/payloads';
import type { WireRecord } from '../src/resources/model';
import type { DeviceCommandRecord } from '../src/resources/devices/requests';
import { commandLog, type CommandLog } from './deviceCommands';

const HEARTBEAT_MS = 15_000;

export interface LiveOptions {
  /** The devices table: an online chamber's readings move on it as they do on the stream. */
  devices: () => WireRecord[];
  commands: CommandLog;
  /** The Ids of the devices the request's caller sees (the devices list's answer to it). */
  visibleTo: (request: Request) => Promise<ReadonlySet<string>>;
  /**
   * Every so often each online chamber the caller sees reports a new reading (a `device` patch: presence,
   * last seen, reading), and commands answered since are reported (`command`). Unset, the stream only
   * says `ready` and keeps itself open, so a unit test's console sees nothing move on its own.
   */
  tickMs?: number;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
/** A reading's value moved a little, as a chamber's sensors drift between reports. */
const drift = (value: number | undefined, step: number, digits: number) =>
  value === undefined ? undefined : round(value + (Math.random() - 0.5) * 2 * step, digits);

/** An online chamber's next report: its last reading drifted, taken now. */
const nextReading = (device: WireRecord, now: number): Telemetry & { Id: string } => {
  const last = (device.Reading ?? {}) as Telemetry;
  return {
    ...last,
    Id: String(device.Id),
    Time: now,
    RCP: drift(last.RCP, 0.01, 2),
    RCPi02: drift(last.RCPi02, 0.1, 1),
    RCT: drift(last.RCT, 0.1, 1),
    RCRH: drift(last.RCRH, 0.5, 0),
    ...(last.HmHR === undefined ? {} : { HmHR: Math.max(40, Math.round(last.HmHR + (Math.random() - 0.5) * 4)) }),
  };
};

/**
 * `GET <restBase>/live` (docs/live.md) in the mocks: `ready`, then, every `tickMs`, the chambers' reports
 * and the commands' answers the caller may see, with heartbeats between. Without a bearer token it
 * answers 401 as the server does.
 */
export const liveHandlers = (
  restBase: string,
  { devices = () => [], commands = commandLog(), visibleTo = async () => new Set(), tickMs }: Partial<LiveOptions> = {},
) => [
  http.get(`${restBase}/live`, async ({ request }) => {
    if (!/^Bearer \S+$/.test(request.headers.get('authorization') ?? '')) {
      return HttpResponse.json({ message: 'not logged in', code: CODES.notSignedIn }, { status: 401 });
    }
    const visible = tickMs === undefined ? new Set<string>() : await visibleTo(request);
    const encoder = new TextEncoder();
    let sequence = 0;
    const opened = Date.now();
    /** The commands this stream has reported: the log is settled by any reader, so each stream keeps its own count. */
    const reported = new Set<string>();
    const timers: ReturnType<typeof setInterval>[] = [];
    const stop = () => timers.forEach((timer) => clearInterval(timer));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const send = (event: string, data: unknown) =>
          controller.enqueue(encoder.encode(`id: mock.${(sequence += 1)}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        send('ready', { heartbeatMs: HEARTBEAT_MS });
        timers.push(setInterval(() => controller.enqueue(encoder.encode(': keep-alive\n\n')), HEARTBEAT_MS));
        if (tickMs !== undefined) {
          timers.push(
            setInterval(() => {
              const now = Date.now();
              commands.settle();
              for (const record of commands.records as unknown as DeviceCommandRecord[]) {
                if (record.status === 'sent' || (record.answeredAt ?? 0) < opened || reported.has(record.id) || !visible.has(record.Id)) continue;
                reported.add(record.id);
                const event: LiveEvent = {
                  type: 'command',
                  data: { cmdId: record.id, Id: record.Id, type: record.type, status: record.status, at: record.answeredAt ?? now, ...(record.error ? { error: record.error } : {}) },
                };
                send(event.type, event.data);
              }
              for (const device of devices()) {
                if (device.Online !== true || !visible.has(String(device.Id))) continue;
                Object.assign(device, { LastSeen: now, Reading: nextReading(device, now) });
                const event: LiveEvent = { type: 'device', data: { Id: String(device.Id), Online: true, LastSeen: now, Reading: device.Reading as Telemetry & { Id: string } } };
                send(event.type, event.data);
              }
            }, tickMs),
          );
        }
        request.signal.addEventListener('abort', () => {
          stop();
          controller.error(new DOMException('aborted', 'AbortError'));
        });
      },
      cancel: stop,
    });
    return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
  }),
];
