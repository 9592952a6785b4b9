import { describe, expect, it } from 'vitest';
import { alarmMessageChange } from './alarms';

/** What each alarm change tells the message boxes (docs/messages.md, "Alarms"), change by change. */

const side = (state: string, priority: string) => ({ state, priority });

describe('alarmMessageChange', () => {
  it.each([
    ['opened high', undefined, side('active-unacked', 'high'), { notice: 'alarmRaised', todo: 'post' }],
    ['opened medium', undefined, side('active-unacked', 'medium'), { notice: 'alarmRaised', todo: 'post' }],
    ['opened low: nothing to acknowledge in the box', undefined, side('active-unacked', 'low'), { notice: 'alarmRaised' }],
    ['opened suppressed: never signalled', undefined, side('suppressed', 'high'), {}],
    ['back from its shelf', side('shelved', 'high'), side('active-unacked', 'high'), { notice: 'alarmRaised', todo: 'post' }],
    ['suppression ended', side('suppressed', 'medium'), side('active-unacked', 'medium'), { notice: 'alarmRaised', todo: 'post' }],
    ['returned to normal: still waits', side('active-unacked', 'high'), side('rtn-unacked', 'high'), {}],
    ['condition back while returned: the same wait', side('rtn-unacked', 'high'), side('active-unacked', 'high'), {}],
    ['acknowledged', side('active-unacked', 'high'), side('active-acked', 'high'), { todo: 'resolve' }],
    ['acknowledged once returned', side('rtn-unacked', 'medium'), side('closed', 'medium'), { todo: 'resolve' }],
    ['shelved', side('rtn-unacked', 'high'), side('shelved', 'high'), { todo: 'resolve' }],
    ['suppressed', side('active-unacked', 'high'), side('suppressed', 'high'), { todo: 'resolve' }],
    ['closed out of service', side('active-unacked', 'medium'), side('closed', 'medium'), { todo: 'resolve' }],
    ['escalated while waiting', side('active-unacked', 'medium'), side('active-unacked', 'high'), { notice: 'alarmEscalated', todo: 'follow' }],
    ['escalated once acknowledged', side('active-acked', 'medium'), side('active-acked', 'high'), { notice: 'alarmEscalated' }],
    ['escalated from low: now to acknowledge', side('active-unacked', 'low'), side('active-unacked', 'high'), { notice: 'alarmEscalated', todo: 'post' }],
    ['escalated while shelved: hidden on purpose', side('shelved', 'medium'), side('shelved', 'high'), {}],
    ['acknowledged alarm clears', side('active-acked', 'high'), side('closed', 'high'), {}],
  ] as const)('%s', (_name, before, after, expected) => {
    expect(alarmMessageChange(before, after)).toEqual(expected);
  });
});
