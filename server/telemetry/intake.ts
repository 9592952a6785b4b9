import { parseMessage } from '../../src/domain/mqtt/parse';
import { parseTopic } from '../../src/domain/mqtt/topics';
import type { AlarmEngine } from '../alarms/engine';
import { applyAck } from '../commands/acks';
import type { CommandLog } from '../commands/outcomes';
import type { AppContext } from '../context';
import type { InboundMessage } from '../mqtt/transport';
import type { IngestCounters, Outcomes } from './counters';
import { handleEvent } from './events';
import type { LimitedLog, LogLevel } from './log';
import type { WorkQueue } from './work-queue';

interface IntakeParts {
  ctx: AppContext;
  log: LimitedLog;
  /** Telemetry and statuses go to the writer thread raw, unparsed here. */
  threaded: boolean;
  counters: IngestCounters;
  outcomes: Outcomes;
  queue: WorkQueue;
  alarms: AlarmEngine;
}

/**
 * Where a taken message goes: telemetry and statuses (raw for the writer thread, or parsed here) and
 * refused messages into the open batch, events (session start and end, emergency, fault: events.ts)
 * and acks as steps. The message is pending from here.
 */
export const createIntake = ({ ctx, log, threaded, counters, outcomes, queue, alarms }: IntakeParts): ((message: InboundMessage, receivedAt: number) => void) => {
  const { addToBatch, addStep } = queue;
  const { drop, settle } = outcomes;

  /** applyAck's log lines (an ignored ack: unknown command, another device's), rate-limited like ours. */
  const ackLine =
    (level: LogLevel) =>
    (fields: unknown, message?: string): void =>
      log(level, `ack:${level}`, typeof fields === 'object' && fields !== null ? fields : { detail: fields }, message ?? 'ack');
  const ackLog: CommandLog = { info: ackLine('info'), warn: ackLine('warn'), error: ackLine('error') };

  return (message, receivedAt) => {
    if (threaded) {
      const topic = parseTopic(message.topic);
      if (topic?.kind === 'telemetry' || topic?.kind === 'status') {
        counters.pending += 1;
        return addToBatch({ kind: 'raw', deviceId: topic.deviceId, message, receivedAt });
      }
    }
    const parsed = parseMessage(message.topic, message.payload, receivedAt);
    counters.pending += 1;
    if (!parsed.ok || parsed.kind === 'cmd') {
      const deviceId = parseTopic(message.topic)?.deviceId;
      const why = parsed.ok ? { reason: 'topic' as const, detail: 'cmd is published by the server' } : parsed;
      drop(why.reason, { deviceId, topic: message.topic, detail: why.detail });
      // Acknowledged in its device's order; a topic naming no device has no order to keep.
      if (deviceId === undefined) settle(message);
      else addToBatch({ kind: 'drop', deviceId, message });
      return;
    }
    const { deviceId } = parsed;
    switch (parsed.kind) {
      case 'telemetry':
        return addToBatch({ kind: 'telemetry', deviceId, message, receivedAt, reading: parsed.message });
      case 'status':
        return addToBatch({ kind: 'status', deviceId, message, receivedAt, status: parsed.message });
      case 'event': {
        const event = parsed.message;
        return addStep(deviceId, message, () => handleEvent({ ctx, log, alarms }, deviceId, event, receivedAt));
      }
      case 'ack': {
        const ack = parsed.message;
        return addStep(deviceId, message, async () => {
          await applyAck(ctx, deviceId, ack, ackLog);
          return { acked: true };
        });
      }
    }
  };
};
