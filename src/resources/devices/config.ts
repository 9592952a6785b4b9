import { DEVICE_TYPE_MAX, DEVICE_TYPE_MIN } from '../../domain/deviceTypes';
import { DEVICE_ID_MAX, DEVICE_ID_PATTERN, DEVICE_PERMISSIONS, DEVICE_STATES } from '../../domain/devices';
import { defineResource } from '../types';

/**
 * The upstream's device commands (docs/server-devices.md); each takes the device `Id`, change_state also the new
 * `State`. change_settings (SP, ST, SS, SL, SA) is ours, in the same family (docs/commands.md).
 */
export const DEVICE_COMMANDS = {
  changePermission: '/order/change_permission',
  changeState: '/order/change_state',
  changeSettings: '/order/change_settings',
} as const;

export const devicesConfig = defineResource({
  name: 'devices',
  menu: { group: 'list', order: 30 },
  id: 'Id',
  representation: 'name',
  defaultSort: { field: 'Id', order: 'ASC' },
  // The upstream lists devices and edits their name, Type and Location (an admin's right); registering and
  // removing a device issues or revokes its MQTT secret, which is the REST API's business (docs/product.md):
  // `POST /api/v1/devices` and `DELETE /api/v1/devices/:Id`. Rotating the secret is a custom call of the same.
  adapter: 'upstream',
  endpoints: { list: '/list/get_OCProperty', update: '/device/update_OCProperty', rest: { path: 'devices', create: true, delete: true } },
  fields: {
    // Location is the device's site: the model has no site apart from it.
    Id: { kind: 'text', maxLength: DEVICE_ID_MAX, pattern: DEVICE_ID_PATTERN, required: true, views: ['list', 'filter', 'sort', 'show', 'create'] },
    name: { kind: 'text', maxLength: 64, required: true, views: ['list', 'filter', 'sort', 'show', 'edit', 'create'] },
    Type: { kind: 'number', integer: true, min: DEVICE_TYPE_MIN, max: DEVICE_TYPE_MAX, namedBy: 'device-types', required: true, views: ['list', 'filter', 'sort', 'show', 'edit', 'create'] },
    Location: { kind: 'text', maxLength: 128, required: true, views: ['list', 'filter', 'sort', 'show', 'edit', 'create'] },
    State: { kind: 'enum', choices: DEVICE_STATES, views: ['list', 'filter', 'sort', 'show'] },
    Permission: { kind: 'enum', choices: DEVICE_PERMISSIONS, views: ['list', 'filter', 'sort', 'show'] },
    OrderNum: { kind: 'text', maxLength: 64, views: ['list', 'filter', 'show'] },
    Emergency: { kind: 'boolean', views: ['list', 'filter', 'show'] },
    Online: { kind: 'boolean', views: ['list', 'filter', 'sort', 'show'] },
    LastSeen: { kind: 'datetime', views: ['show', 'filter', 'sort'] },
    UpdateTime: { kind: 'datetime', views: ['list', 'filter', 'sort', 'show'] },
    /** The operation code of the running session (docs/ingest.md), none between sessions. */
    SessionOC: { kind: 'text', maxLength: 32, views: ['filter', 'show'] },
    /** Whether a session runs (SessionOC is set): a filter of the oxygen monitor. */
    InSession: { kind: 'boolean', views: ['filter'] },
    /** The newest reading (docs/ingest.md, "latest readings"), the one a live patch's Reading carries. */
    Reading: { kind: 'reading', views: [] },
  },
  labels: {
    'zh-CN': {
      name: '设备 |||| 设备',
      fields: {
        Id: '设备编号',
        name: '名称',
        Type: '类型',
        Location: '位置',
        State: '状态',
        Permission: '开关权限',
        OrderNum: '当前运行订单',
        Emergency: '紧急快速泄压',
        Online: '在线',
        LastSeen: '最后在线时间',
        UpdateTime: '更新时间',
        SessionOC: '当前会话',
        Reading: '最新读数',
        InSession: '会话中',
      },
      choices: {
        State: { Work: '工作中', Stop: '空闲', Repair: '维修中' },
        Permission: { Open: '开启', Close: '关闭' },
      },
      message: {
        delete_title: '删除设备 %{id}（%{recordRepresentation}）',
        delete_content:
          '设备 %{id}（%{recordRepresentation}）将被删除：其密钥作废，与消息服务器的连接立即断开。已有的订单和状态记录保留，超级管理员仍可查阅；没有历史记录的设备编号可再次使用。',
      },
    },
    'en-US': {
      name: 'Device |||| Devices',
      fields: {
        Id: 'Device ID',
        name: 'Name',
        Type: 'Type',
        Location: 'Location',
        State: 'Status',
        Permission: 'Switch permission',
        OrderNum: 'Current running order',
        Emergency: 'Emergency rapid depressurisation',
        Online: 'Online',
        LastSeen: 'Last seen',
        UpdateTime: 'Update time',
        SessionOC: 'Current session',
        Reading: 'Latest reading',
        InSession: 'In session',
      },
      choices: {
        State: { Work: 'working', Stop: 'idle', Repair: 'repairing' },
        Permission: { Open: 'open', Close: 'closed' },
      },
      message: {
        delete_title: 'Remove device %{id} (%{recordRepresentation})',
        delete_content:
          'Device %{id} (%{recordRepresentation}) will be removed: its secret is revoked and its connection to the broker ends at once. Its orders and state records are kept, and the super administrator can still read them; the Id of a device without history can be used again.',
      },
    },
  },
});
