import { describe, expect, it } from 'vitest';
import { HttpError } from 'react-admin';
import type { DeviceCommandRecord } from '../../../src/resources/devices/requests';
import { FOLLOW_INTERVAL_MS, followCommand } from '../../../src/resources/devices/followCommand';

type Read = Pick<DeviceCommandRecord, 'status' | 'error'>;

/** Answers (or throws) one item per read; the last one repeats. */
const reader = (...answers: (Read | Error)[]) => {
  let reads = 0;
  const read = async (): Promise<Read> => {
    const answer = answers[Math.min(reads, answers.length - 1)];
    reads += 1;
    if (answer instanceof Error || answer === undefined) throw answer ?? new Error('no answer');
    return answer;
  };
  return { read, count: () => reads };
};

const sent: Read = { status: 'sent', error: null };

describe('followCommand (the poll behind a command\'s notification)', () => {
  it('reads once a second by default', () => {
    expect(FOLLOW_INTERVAL_MS).toBe(1000);
  });

  it('reads until the status is final and answers it with the chamber\'s reason', async () => {
    const { read, count } = reader(sent, sent, { status: 'refused', error: 'door open' });
    expect(await followCommand({ read, intervalMs: 1 })).toEqual({ status: 'refused', error: 'door open' });
    expect(count()).toBe(3);
  });

  it('reads again after a failed read (a network blip, a server error)', async () => {
    const { read, count } = reader(new TypeError('Failed to fetch'), new HttpError('server error', 500), { status: 'acked', error: null });
    expect(await followCommand({ read, intervalMs: 1 })).toEqual({ status: 'acked', error: null });
    expect(count()).toBe(3);
  });

  it('stops without an outcome when the request itself is refused (signed out, not visible any more)', async () => {
    for (const status of [401, 403, 404]) {
      const { read, count } = reader(sent, new HttpError('refused', status), { status: 'acked', error: null });
      expect(await followCommand({ read, intervalMs: 1 })).toBeUndefined();
      expect(count()).toBe(2);
    }
  });

  it('takes the outcome from the live stream as soon as it is heard, ignoring what is not final, and stops listening and reading', async () => {
    const { read, count } = reader(sent);
    let listener: ((outcome: { status: 'sent' | 'acked' | 'refused' | 'timeout'; error?: string }) => void) | undefined;
    let listening = false;
    const following = followCommand({
      read,
      intervalMs: 50,
      watch: (heard) => {
        listener = heard;
        listening = true;
        return () => (listening = false);
      },
    });
    listener?.({ status: 'sent' });
    listener?.({ status: 'refused', error: 'door open' });
    expect(await following).toEqual({ status: 'refused', error: 'door open' });
    expect(listening).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(count()).toBe(0);
  });

  it('takes a command still unanswered after the last read as not answered', async () => {
    const { read, count } = reader(sent);
    expect(await followCommand({ read, intervalMs: 1, maxReads: 5 })).toEqual({ status: 'timeout', error: null });
    expect(count()).toBe(5);
  });
});
