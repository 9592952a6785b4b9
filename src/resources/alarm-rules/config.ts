import { ALARM_KINDS, LESSER_PRIORITIES } from '../../domain/alarms/rules';
import { DEVICE_TYPE_MAX, DEVICE_TYPE_MIN } from '../../domain/deviceTypes';
import { defineResource } from '../types';
import { ALARM_KIND_LABELS, ALARM_KIND_UNITS } from '../alarms/config';

/** A limit in its rule's unit (oxygen in %, pressure in ATA, ...). */
const inKindUnit = { source: 'kind', units: ALARM_KIND_UNITS } as const;

/** Thresholds span every reading a rule watches (pressure, oxygen, temperature, humidity, vitals, blood pressure). */
const limit = { kind: 'number', min: -50, max: 300, unitBy: inKindUnit, views: ['list', 'show', 'edit'] } as const;
const delay = { kind: 'number', integer: true, min: 0, max: 3600, unit: 'second', required: true, views: ['list', 'show', 'edit'] } as const;

/**
 * The alarm rules of each device type, served by `GET /api/v1/alarm-rules` and `/:id`, edited by an admin
 * with `PUT /api/v1/alarm-rules/:id` (server/alarms/routes.ts and rule-edit.ts, which validates with this
 * configuration's edit fields; docs/alarms.md "Rules" and "Tuning"). The console lists them for every role
 * and offers the edit form to whom the policy lets edit; a type shows by its name. A rule's number, whether
 * the limit itself alarms, its off-delay and when it changed are in the list's column chooser, so a row
 * keeps to a laptop's width in English.
 */
export const alarmRulesConfig = defineResource({
  name: 'alarm-rules',
  menu: { group: 'list', order: 45 },
  id: 'id',
  representation: 'id',
  defaultSort: { field: 'id', order: 'ASC' },
  adapter: 'rest',
  fields: {
    id: { kind: 'number', integer: true, min: 1, max: 1_000_000, views: ['sort', 'show'] },
    deviceType: {
      kind: 'number',
      integer: true,
      min: DEVICE_TYPE_MIN,
      max: DEVICE_TYPE_MAX,
      namedBy: 'device-types',
      required: true,
      views: ['list', 'filter', 'sort', 'show'],
    },
    kind: { kind: 'enum', choices: ALARM_KINDS, required: true, views: ['list', 'filter', 'show'] },
    priority: { kind: 'enum', choices: LESSER_PRIORITIES, required: true, views: ['list', 'show', 'edit'] },
    above: limit,
    below: limit,
    highAbove: limit,
    highBelow: limit,
    atLimit: { kind: 'boolean', required: true, views: ['show', 'edit'] },
    onDelayS: delay,
    offDelayS: { ...delay, views: ['show', 'edit'] },
    deadband: { kind: 'number', min: 0, max: 50, unitBy: inKindUnit, required: true, views: ['list', 'show', 'edit'] },
    enabled: { kind: 'boolean', required: true, views: ['list', 'filter', 'show', 'edit'] },
    updatedAt: { kind: 'datetime', required: true, views: ['sort', 'show'] },
  },
  labels: {
    'zh-CN': {
      name: '报警规则 |||| 报警规则',
      fields: {
        id: '编号',
        deviceType: '设备类型',
        kind: '报警类型',
        priority: '一般报警优先级',
        above: '一般报警上限',
        below: '一般报警下限',
        highAbove: '高级报警上限',
        highBelow: '高级报警下限',
        atLimit: '达到限值即报警',
        onDelayS: '报警延时',
        offDelayS: '恢复延时',
        deadband: '死区',
        enabled: '启用',
        updatedAt: '修改时间',
      },
      choices: {
        kind: ALARM_KIND_LABELS['zh-CN'],
        priority: { medium: '中', low: '低' },
      },
    },
    'en-US': {
      name: 'Alarm rule |||| Alarm rules',
      fields: {
        id: 'No.',
        deviceType: 'Device type',
        kind: 'Alarm',
        priority: 'Lesser band priority',
        above: 'Alarm above',
        below: 'Alarm below',
        highAbove: 'High above',
        highBelow: 'High below',
        atLimit: 'The limit itself alarms',
        onDelayS: 'On-delay',
        offDelayS: 'Off-delay',
        deadband: 'Deadband',
        enabled: 'Enabled',
        updatedAt: 'Changed',
      },
      choices: {
        kind: ALARM_KIND_LABELS['en-US'],
        priority: { medium: 'medium', low: 'low' },
      },
    },
  },
});
