import { http, HttpResponse } from 'msw';
import type { AlarmRecord, AlarmTransition } from '../src/domain/alarms/record';
import { DEFAULT_ALARM_RULES, DEVICE_TYPES, type AlarmKind, type AlarmPriority, type AlarmState } from '../src/domain/alarms/rules';
import { nextAlarmState } from '../src/domain/alarms/states';
import { alarmRulesConfig } from '../src/resources/alarm-rules/config';
import { ALARM_ACTION_RIGHTS, ALARM_ACTIONS, alarmActionBodies, ALARMS_PATH, type AlarmAction } from '../src/resources/alarms/requests';
import type { WireRecord } from '../src/resources/model';
import { writeSchema } from '../src/resources/schema';
import { badInputMessage, readJson, refusalOf, type AccessCheck } from './access';
import { mockAccountOf } from './auth';
import type { MockScope } from './scope';

const MINUTE = 60_000;

/** Every device type's copy of the default rules, as the server's migration seeds them. */
export const seededAlarmRules = (updatedAt: number): WireRecord[] =>
  DEVICE_TYPES.flatMap((deviceType, typeIndex) =>
    DEFAULT_ALARM_RULES.map((rule, index) => ({ id: typeIndex * DEFAULT_ALARM_RULES.length + index + 1, deviceType, ...rule, updatedAt })),
  );

interface Seed {
  kind: AlarmKind;
  priority: AlarmPriority;
  value: number | null;
  threshold: number | null;
  /** The states it went through after being raised, with who moved it and why. */
  steps: readonly { to: AlarmState; actor: string; comment?: string }[];
}

const SYSTEM = 'system';

/** A handful of alarms, one per state at least, on the first mocked chambers. */
const SEEDS: readonly Seed[] = [
  { kind: 'o2-high', priority: 'high', value: 23.6, threshold: 23.5, steps: [] },
  { kind: 'temperature', priority: 'medium', value: 27.1, threshold: 26, steps: [{ to: 'active-acked', actor: 'user', comment: 'air conditioning checked' }] },
  { kind: 'humidity', priority: 'low', value: 88, threshold: 85, steps: [{ to: 'rtn-unacked', actor: SYSTEM }] },
  { kind: 'spo2-low', priority: 'medium', value: 92.5, threshold: 94, steps: [{ to: 'shelved', actor: 'user', comment: 'finger sensor being replaced' }] },
  { kind: 'heart-rate', priority: 'medium', value: 131, threshold: 120, steps: [{ to: 'suppressed', actor: SYSTEM }] },
  { kind: 'erd', priority: 'high', value: null, threshold: null, steps: [] },
  {
    kind: 'pressure-high',
    priority: 'high',
    value: 2.05,
    threshold: 2,
    steps: [
      { to: 'rtn-unacked', actor: SYSTEM },
      { to: 'closed', actor: 'admin', comment: 'valve replaced' },
    ],
  },
  { kind: 'offline', priority: 'medium', value: null, threshold: null, steps: [{ to: 'closed', actor: 'admin', comment: 'chamber moved to another site' }] },
];

/** Whether a seeded alarm's condition still stands: it decides where unshelving leads. */
const stands = (state: AlarmState): boolean => state !== 'rtn-unacked' && state !== 'closed';

interface MockAlarms {
  alarms: WireRecord[];
  history: Map<number, AlarmTransition[]>;
  condition: Map<number, boolean>;
}

/** The seeded alarms on `devices`, newest first, each with its transitions a minute apart (deterministic from `epoch`). */
export const seededAlarms = (devices: readonly WireRecord[], epoch: number): MockAlarms => {
  const history = new Map<number, AlarmTransition[]>();
  const condition = new Map<number, boolean>();
  let transitionId = 0;
  const alarms = SEEDS.map((seed, index): WireRecord => {
    const id = index + 1;
    const raisedAt = epoch - (index + 1) * 7 * MINUTE;
    const transitions: AlarmTransition[] = [{ id: (transitionId += 1), at: raisedAt, from: null, to: 'active-unacked', actor: SYSTEM, comment: null }];
    const alarm: AlarmRecord = {
      id,
      deviceId: String(devices[index % Math.max(1, Math.min(devices.length, 6))]?.Id ?? `Id-${id}`),
      kind: seed.kind,
      priority: seed.priority,
      state: 'active-unacked',
      value: seed.value,
      threshold: seed.threshold,
      raisedAt,
      ackedAt: null,
      ackedBy: null,
      closedAt: null,
      shelvedUntil: null,
      comment: null,
    };
    seed.steps.forEach(({ to, actor, comment = null }, step) => {
      const at = raisedAt + (step + 1) * MINUTE;
      transitions.push({ id: (transitionId += 1), at, from: alarm.state, to, actor, comment });
      if (to === 'active-acked' || (to === 'closed' && alarm.state === 'rtn-unacked')) Object.assign(alarm, { ackedAt: at, ackedBy: actor });
      if (to === 'shelved') alarm.shelvedUntil = at + 60 * MINUTE;
      if (to === 'closed') alarm.closedAt = at;
      alarm.state = to;
      alarm.comment = comment ?? alarm.comment;
    });
    history.set(id, transitions);
    condition.set(id, stands(alarm.state));
    return { ...alarm };
  });
  return { alarms, history, condition };
};

const LIMITS = ['above', 'below', 'highAbove', 'highBelow'] as const;

const answer = (status: number, message: string, code: number) => HttpResponse.json({ message, code }, { status });

/** The server's words (en-US) for an action the alarm's state does not allow. */
const CANNOT: Record<AlarmAction, (id: number) => string> = {
  ack: (id) => `alarm ${id} cannot be acknowledged in its present state`,
  shelve: (id) => `alarm ${id} cannot be shelved in its present state: only an active or returned alarm can`,
  unshelve: (id) => `alarm ${id} is not shelved`,
  close: (id) => `alarm ${id} is closed already`,
};

const isAction = (value: unknown): value is AlarmAction => (ALARM_ACTIONS as readonly unknown[]).includes(value);

/** The alarm's fields an action sets beside its state (server/alarms/actions.ts). */
const changesOf = (action: AlarmAction, body: Record<string, unknown>, account: string, at: number): Partial<AlarmRecord> => {
  switch (action) {
    case 'ack':
      return { ackedAt: at, ackedBy: account, ...(typeof body.comment === 'string' ? { comment: body.comment } : {}) };
    case 'shelve':
      return { shelvedUntil: at + Number(body.minutes) * MINUTE, comment: String(body.reason) };
    case 'unshelve':
      return { shelvedUntil: null };
    case 'close':
      return { comment: String(body.reason) };
  }
};

/**
 * The alarms' actions and history under the REST prefix, with the server's rules (docs/alarms.md): the
 * shared bodies (shelving up to the default ALARM_SHELVE_MAX_MINUTES), each action's right from the shared
 * policy, the state machine of src/domain/alarms/states.ts (an action its state does not allow is 400
 * naming the alarm), every change a transition; and a rule's edit stamps its time. Messages in en-US, as
 * the server words them; an alarm of a device out of the caller's scope is not found. The lists and single
 * reads are the generated REST handlers over the same tables.
 */
export const alarmHandlers = (restBase: string, tables: Map<string, WireRecord[]>, check: AccessCheck, scope: MockScope, { history, condition }: Omit<MockAlarms, 'alarms'>) => {
  const alarms = tables.get('alarms') ?? [];
  const rules = tables.get('alarm-rules') ?? [];
  const bodies = alarmActionBodies();
  const refuse = (request: Request, resource: string, action: string) => {
    const refusal = refusalOf(request, check, { resource, action });
    if (refusal === 'notSignedIn') return answer(401, 'not logged in', 50008);
    return refusal === 'forbidden' ? answer(403, 'access denied', 40300) : undefined;
  };
  const find = (request: Request, id: unknown) => alarms.find((alarm) => String(alarm.id) === String(id) && scope.seesDevice(request, alarm.deviceId));
  const notFound = () => answer(404, 'not found', 40400);
  const url = `${restBase}/${ALARMS_PATH}`;

  return [
    http.get(`${url}/:id/history`, ({ request, params }) => {
      const refused = refuse(request, 'alarms', 'show');
      if (refused) return refused;
      const alarm = find(request, params.id);
      return alarm ? HttpResponse.json(history.get(Number(alarm.id)) ?? []) : notFound();
    }),
    http.post(`${url}/:id/:action`, async ({ request, params }) => {
      const { action } = params;
      if (!isAction(action)) return notFound();
      const refused = refuse(request, 'alarms', ALARM_ACTION_RIGHTS[action]);
      if (refused) return refused;
      const alarm = find(request, params.id);
      if (!alarm) return notFound();
      const body = bodies[action].safeParse((await readJson(request)) ?? {});
      if (!body.success) return answer(400, badInputMessage(body.error), 40000);
      const id = Number(alarm.id);
      const from = alarm.state as AlarmState;
      const to = nextAlarmState(from, action, { condition: condition.get(id) ?? false, suppressed: false });
      if (to === undefined) return answer(400, CANNOT[action](id), 40000);
      const at = Date.now();
      const account = mockAccountOf(request) ?? 'unknown';
      const data = body.data as Record<string, unknown>;
      Object.assign(alarm, changesOf(action, data, account, at), { state: to }, to === 'closed' ? { closedAt: at } : {});
      const comment = typeof data.reason === 'string' ? data.reason : typeof data.comment === 'string' ? data.comment : null;
      const transitions = history.get(id) ?? [];
      transitions.push({ id: Math.max(0, ...[...history.values()].flat().map((each) => each.id)) + 1, at, from, to, actor: account, comment });
      history.set(id, transitions);
      return HttpResponse.json(alarm);
    }),
    http.put(`${restBase}/${alarmRulesConfig.name}/:id`, async ({ request, params }) => {
      const refused = refuse(request, alarmRulesConfig.name, 'edit');
      if (refused) return refused;
      const rule = rules.find((candidate) => String(candidate.id) === String(params.id));
      if (!rule) return notFound();
      const body = writeSchema(alarmRulesConfig, 'edit').safeParse(await readJson(request));
      if (!body.success) return answer(400, badInputMessage(body.error), 40000);
      // A limit left out is none, as the server takes it.
      const limits = Object.fromEntries(LIMITS.map((limit) => [limit, body.data[limit] ?? null]));
      Object.assign(rule, body.data, limits, { id: rule.id, updatedAt: Date.now() });
      return HttpResponse.json(rule);
    }),
  ];
};
