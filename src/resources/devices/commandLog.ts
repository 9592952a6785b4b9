import { CMD_ID_MAX, CMD_ID_PATTERN, COMMAND_STATUSES, COMMAND_TYPES } from '../../domain/commands';
import { defineResource } from '../types';
import { DEVICE_ID_MAX } from '../../domain/devices';

/** Where the commands are read under the REST base: `/api/v1/device-commands`. */
export const DEVICE_COMMANDS_PATH = 'device-commands';

/**
 * The commands sent to chambers and what became of them, served read-only as REST by
 * `GET /api/v1/device-commands` and `/:id` (server/commands/, docs/commands.md), each record a
 * DeviceCommandRecord (./requests.ts; `command`, the payload as sent, is free JSON, not a field here).
 * Not in the console's registry: the console reads one command's outcome through the data provider's
 * `commandOutcome`; the configuration gives the server its list meaning (filter, sort, paging).
 */
export const deviceCommandsConfig = defineResource({
  name: DEVICE_COMMANDS_PATH,
  menu: { group: 'list', order: 35 },
  id: 'id',
  representation: 'id',
  defaultSort: { field: 'issuedAt', order: 'DESC' },
  adapter: 'rest',
  path: DEVICE_COMMANDS_PATH,
  fields: {
    id: { kind: 'text', maxLength: CMD_ID_MAX, pattern: CMD_ID_PATTERN, required: true, views: ['list', 'sort', 'show'] },
    Id: { kind: 'text', maxLength: DEVICE_ID_MAX, required: true, views: ['list', 'filter', 'sort', 'show'] },
    type: { kind: 'enum', choices: COMMAND_TYPES, required: true, views: ['list', 'filter', 'show'] },
    status: { kind: 'enum', choices: COMMAND_STATUSES, required: true, views: ['list', 'filter', 'sort', 'show'] },
    error: { kind: 'text', maxLength: 255, views: ['list', 'show'] },
    actor: { kind: 'text', maxLength: 64, views: ['list', 'filter', 'show'] },
    issuedAt: { kind: 'datetime', required: true, views: ['list', 'filter', 'sort', 'show'] },
    answeredAt: { kind: 'datetime', views: ['list', 'sort', 'show'] },
  },
  labels: {
    'zh-CN': {
      name: '设备指令 |||| 设备指令',
      fields: {
        id: '指令编号',
        Id: '设备编号',
        type: '指令类型',
        status: '结果',
        error: '设备说明',
        actor: '操作人',
        issuedAt: '发送时间',
        answeredAt: '应答时间',
      },
      choices: {
        type: { permission: '开关权限', state: '设备状态', settings: '设备参数' },
        status: { sent: '等待设备应答', acked: '设备已确认', refused: '设备拒绝', timeout: '无应答' },
      },
    },
    'en-US': {
      name: 'Device command |||| Device commands',
      fields: {
        id: 'Command ID',
        Id: 'Device ID',
        type: 'Command',
        status: 'Outcome',
        error: 'Device says',
        actor: 'Actor',
        issuedAt: 'Sent',
        answeredAt: 'Answered',
      },
      choices: {
        type: { permission: 'switch permission', state: 'status', settings: 'settings' },
        status: { sent: 'waiting for the chamber', acked: 'confirmed', refused: 'refused', timeout: 'no answer' },
      },
    },
  },
});
