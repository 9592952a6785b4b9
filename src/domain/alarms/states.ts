import type { AlarmState } from './rules';

/**
 * What happens to an alarm (docs/alarms.md, "States"). `condition` is whether the rule's condition still
 * stands (raised and not yet returned to normal): it decides where a shelved or suppressed alarm goes.
 *
 *   raise:     none or rtn-unacked → active-unacked (suppressed when suppression applies); others unchanged
 *   clear:     active-unacked → rtn-unacked; active-acked, suppressed → closed; shelved, rtn-unacked unchanged
 *   suppress:  active-unacked, active-acked, rtn-unacked → suppressed
 *   release:   suppressed → active-unacked while the condition stands, closed otherwise (suppression ended)
 *   ack:       active-unacked → active-acked; rtn-unacked → closed
 *   shelve:    active-unacked, active-acked, rtn-unacked → shelved
 *   unshelve:  shelved → active-unacked while the condition stands, closed otherwise (also at expiry)
 *   close:     any open state → closed (out of service, with a reason)
 */
export type AlarmInput = 'raise' | 'clear' | 'suppress' | 'release' | 'ack' | 'shelve' | 'unshelve' | 'close';

/** The operator's actions (REST), as opposed to what the engine does. */
export type OperatorInput = Extract<AlarmInput, 'ack' | 'shelve' | 'unshelve' | 'close'>;

const ANNUNCIATED: readonly AlarmState[] = ['active-unacked', 'active-acked', 'rtn-unacked'];

/**
 * The state after `input` on an alarm in `state` (undefined: no open alarm), or undefined when the input
 * does not apply there (an operator's action is then refused; the engine's changes nothing). `suppressed`:
 * whether suppression applies to the rule now (device in Repair, or a vital outside a session).
 */
export const nextAlarmState = (
  state: AlarmState | undefined,
  input: AlarmInput,
  { condition, suppressed }: { condition: boolean; suppressed: boolean },
): AlarmState | undefined => {
  const returning = condition ? 'active-unacked' : 'closed';
  switch (input) {
    case 'raise':
      if (state === undefined || state === 'closed' || state === 'rtn-unacked') return suppressed ? 'suppressed' : 'active-unacked';
      return undefined;
    case 'clear':
      if (state === 'active-unacked') return 'rtn-unacked';
      return state === 'active-acked' || state === 'suppressed' ? 'closed' : undefined;
    case 'suppress':
      return state !== undefined && ANNUNCIATED.includes(state) ? 'suppressed' : undefined;
    case 'release':
      return state === 'suppressed' ? returning : undefined;
    case 'ack':
      if (state === 'active-unacked') return 'active-acked';
      return state === 'rtn-unacked' ? 'closed' : undefined;
    case 'shelve':
      return state !== undefined && ANNUNCIATED.includes(state) ? 'shelved' : undefined;
    case 'unshelve':
      return state === 'shelved' ? returning : undefined;
    case 'close':
      return state === undefined || state === 'closed' ? undefined : 'closed';
  }
};
