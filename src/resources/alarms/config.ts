import { OPEN_ALARM_STATES } from '../../domain/alarms/open';
import { ALARM_KINDS, ALARM_PRIORITIES, ALARM_STATES, type AlarmKind } from '../../domain/alarms/rules';
import { defineResource, type Unit } from '../types';

/** The unit of each kind's readings, values, limits and deadband (the event kinds have none). */
export const ALARM_KIND_UNITS: Readonly<Partial<Record<AlarmKind, Unit>>> = {
  'o2-high': 'percent',
  'pressure-high': 'ata',
  'pressure-rate': 'ataPerMinute',
  temperature: 'celsius',
  humidity: 'relativeHumidity',
  'spo2-low': 'percent',
  'heart-rate': 'bpm',
  'blood-pressure': 'mmHg',
};

/** A value in its kind's unit. */
const inKindUnit = { source: 'kind', units: ALARM_KIND_UNITS } as const;

/** Kinds in both languages: the alarms' and the rules' labels, and the console's alarm signals. */
export const ALARM_KIND_LABELS = {
  'zh-CN': {
    'o2-high': '舱内氧浓度高',
    'pressure-high': '舱压高',
    'pressure-rate': '舱压变化过快',
    temperature: '舱内温度',
    humidity: '舱内湿度',
    'spo2-low': '血氧低',
    'heart-rate': '心率',
    'blood-pressure': '血压高',
    offline: '数据中断',
    erd: '紧急快速减压',
  },
  'en-US': {
    'o2-high': 'cabin oxygen high',
    'pressure-high': 'cabin pressure high',
    'pressure-rate': 'pressure changing fast',
    temperature: 'cabin temperature',
    humidity: 'cabin humidity',
    'spo2-low': 'SpO2 low',
    'heart-rate': 'heart rate',
    'blood-pressure': 'blood pressure high',
    offline: 'lost telemetry',
    erd: 'emergency rapid depressurisation',
  },
} as const;


/**
 * The safety alarms, served by `GET /api/v1/alarms` and `/:id` (server/alarms/, docs/alarms.md) with their
 * actions (ack, shelve, unshelve, close) and history beside (./requests.ts); the console's alarm list and
 * page are generated from it. The list opens on the open alarms (every state but closed); the device
 * links to its detail page; a value and its threshold are in the kind's unit.
 */
export const alarmsConfig = defineResource({
  name: 'alarms',
  menu: { group: 'list', order: 40 },
  id: 'id',
  representation: 'id',
  defaultSort: { field: 'raisedAt', order: 'DESC' },
  defaultFilter: { state: OPEN_ALARM_STATES },
  adapter: 'rest',
  fields: {
    id: { kind: 'number', integer: true, min: 1, max: Number.MAX_SAFE_INTEGER, views: ['list', 'sort', 'show'] },
    deviceId: { kind: 'reference', reference: 'devices', searchBy: 'Id', shows: 'Id', required: true, views: ['list', 'filter', 'sort', 'show'] },
    kind: { kind: 'enum', choices: ALARM_KINDS, required: true, views: ['list', 'filter', 'show'] },
    priority: {
      kind: 'enum',
      choices: ALARM_PRIORITIES,
      tones: { high: 'error', medium: 'warning', low: 'info' },
      required: true,
      views: ['list', 'filter', 'sort', 'show'],
    },
    state: { kind: 'enum', choices: ALARM_STATES, filterMany: true, required: true, views: ['list', 'filter', 'show'] },
    value: { kind: 'number', min: -1_000, max: 1_000, unitBy: inKindUnit, views: ['list', 'show'] },
    threshold: { kind: 'number', min: -1_000, max: 1_000, unitBy: inKindUnit, views: ['list', 'show'] },
    raisedAt: { kind: 'datetime', required: true, views: ['list', 'filter', 'sort', 'show'] },
    ackedAt: { kind: 'datetime', views: ['sort', 'show'] },
    ackedBy: { kind: 'text', maxLength: 64, views: ['show'] },
    closedAt: { kind: 'datetime', views: ['sort', 'show'] },
    shelvedUntil: { kind: 'datetime', views: ['show'] },
    comment: { kind: 'text', maxLength: 500, views: ['list', 'show'] },
  },
  labels: {
    'zh-CN': {
      name: '报警 |||| 报警',
      fields: {
        id: '报警编号',
        deviceId: '设备编号',
        kind: '报警类型',
        priority: '优先级',
        state: '状态',
        value: '报警值',
        threshold: '阈值',
        raisedAt: '报警时间',
        ackedAt: '确认时间',
        ackedBy: '确认人',
        closedAt: '关闭时间',
        shelvedUntil: '搁置至',
        comment: '备注',
      },
      choices: {
        kind: ALARM_KIND_LABELS['zh-CN'],
        priority: { high: '高', medium: '中', low: '低' },
        state: {
          'active-unacked': '报警中，未确认',
          'active-acked': '报警中，已确认',
          'rtn-unacked': '已恢复，未确认',
          shelved: '已搁置',
          suppressed: '已抑制',
          closed: '已关闭',
        },
      },
    },
    'en-US': {
      name: 'Alarm |||| Alarms',
      fields: {
        id: 'Alarm No.',
        deviceId: 'Device ID',
        kind: 'Alarm',
        priority: 'Priority',
        state: 'State',
        value: 'Value',
        threshold: 'Threshold',
        raisedAt: 'Raised',
        ackedAt: 'Acknowledged',
        ackedBy: 'Acknowledged by',
        closedAt: 'Closed',
        shelvedUntil: 'Shelved until',
        comment: 'Comment',
      },
      choices: {
        kind: ALARM_KIND_LABELS['en-US'],
        priority: { high: 'high', medium: 'medium', low: 'low' },
        state: {
          'active-unacked': 'active, unacknowledged',
          'active-acked': 'active, acknowledged',
          'rtn-unacked': 'returned, unacknowledged',
          shelved: 'shelved',
          suppressed: 'suppressed',
          closed: 'closed',
        },
      },
    },
  },
});
