import type { FastifyInstance } from 'fastify';
import { vi } from 'vitest';
import type { CommandLog } from '../../server/commands/outcomes';
import type { DeviceLink } from '../../server/mqtt/link';
import type { LiveEvent } from '../../src/domain/live';
import type { Command } from '../../src/domain/mqtt/payloads';

/** A broker stand-in for the command tests: records what the server publishes, or fails every publish. */
export interface RecordingLink extends DeviceLink {
  sent: { deviceId: string; command: Command }[];
}

export const recordingLink = (failure?: Error): RecordingLink => {
  const sent: RecordingLink['sent'] = [];
  return {
    sent,
    sendCommand: async (deviceId, command) => {
      if (failure !== undefined) throw failure;
      sent.push({ deviceId, command });
    },
    disconnectDevice: () => undefined,
  };
};

/** Every live event the app publishes from now on. */
export const liveEvents = (app: FastifyInstance): LiveEvent[] => {
  const events: LiveEvent[] = [];
  app.ctx.live.subscribe((event) => events.push(event));
  return events;
};

/** A logger whose calls the test can read. */
export const fakeLog = () => ({ info: vi.fn(), warn: vi.fn(), error: vi.fn() }) satisfies Record<keyof CommandLog, unknown>;

/** The commands in the store, oldest first. */
export const storedCommands = (app: FastifyInstance) =>
  app.ctx.db.selectFrom('device_commands').selectAll().orderBy('issued_at').orderBy('cmd_id').execute();
