import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../domain/audit';
import { defineResource } from '../types';

/**
 * The audit trail (docs/product.md: "read the audit log: admin all / user subtree / lowUser subtree / client
 * own"; entries are visible only when their device is), served read-only as REST by
 * `GET /api/v1/audit-log` (server/audit/list.ts, docs/audit.md). An entry is `AuditEntry` of
 * src/domain/audit.ts; its `before` and `after` are free JSON, so they are not fields here: the show
 * page renders them (AuditEntryShow.tsx).
 */
export const auditLogConfig = defineResource({
  name: 'audit-log',
  menu: { group: 'other', order: 90 },
  id: 'id',
  representation: 'id',
  defaultSort: { field: 'at', order: 'DESC' },
  adapter: 'rest',
  path: 'audit-log',
  fields: {
    id: { kind: 'number', integer: true, min: 1, max: Number.MAX_SAFE_INTEGER, required: true, views: ['show', 'sort'] },
    at: { kind: 'datetime', required: true, views: ['list', 'filter', 'sort', 'show'] },
    actor: { kind: 'text', maxLength: 64, required: true, views: ['list', 'filter', 'sort', 'show'] },
    action: { kind: 'enum', choices: AUDIT_ACTIONS, required: true, views: ['list', 'filter', 'sort', 'show'] },
    targetType: { kind: 'enum', choices: AUDIT_TARGET_TYPES, required: true, views: ['list', 'filter', 'show'] },
    targetId: { kind: 'text', maxLength: 128, required: true, views: ['list', 'filter', 'show'] },
    deviceId: { kind: 'text', maxLength: 64, views: ['list', 'filter', 'show'] },
    address: { kind: 'text', maxLength: 64, required: true, views: ['show'] },
  },
  labels: {
    'zh-CN': {
      name: '审计日志 |||| 审计日志',
      fields: {
        id: '编号',
        at: '时间',
        actor: '操作人',
        action: '操作内容',
        targetType: '对象类型',
        targetId: '对象',
        deviceId: '设备',
        address: '来源地址',
      },
      choices: {
        action: {
          'auth.signIn': '登录',
          'auth.signInRefused': '登录被拒绝',
          'auth.signOut': '退出登录',
          'account.create': '创建账号',
          'account.resetPassword': '重置密码',
          'account.changeOwnPassword': '修改本人密码',
          'account.assignDevices': '分配设备',
          'device.register': '注册设备',
          'device.rotateSecret': '更换设备密钥',
          'device.delete': '删除设备',
          'device.update': '编辑设备',
          'device.changePermission': '切换开关权限',
          'device.changeState': '设置设备状态',
          'device.changeSettings': '修改设备参数',
          'device.commandAcked': '设备已确认指令',
          'device.commandRefused': '设备拒绝指令',
          'device.commandTimedOut': '指令无应答',
          'order.used': '订单开始使用',
          'order.finished': '订单完成',
          'order.created': '预约下单',
          'order.cancelled': '取消预约',
          'order.expired': '订单过期',
        },
        targetType: { account: '账号', device: '设备', order: '订单' },
      },
    },
    'en-US': {
      name: 'Audit entry |||| Audit log',
      fields: {
        id: 'No.',
        at: 'Time',
        actor: 'Actor',
        action: 'Action',
        targetType: 'Target type',
        targetId: 'Target',
        deviceId: 'Device',
        address: 'Address',
      },
      choices: {
        action: {
          'auth.signIn': 'signed in',
          'auth.signInRefused': 'sign-in refused',
          'auth.signOut': 'signed out',
          'account.create': 'account created',
          'account.resetPassword': 'password reset',
          'account.changeOwnPassword': 'own password changed',
          'account.assignDevices': 'devices assigned',
          'device.register': 'device registered',
          'device.rotateSecret': 'device secret rotated',
          'device.delete': 'device deleted',
          'device.update': 'device edited',
          'device.changePermission': 'permission switched',
          'device.changeState': 'state set',
          'device.changeSettings': 'settings changed',
          'device.commandAcked': 'command confirmed by the chamber',
          'device.commandRefused': 'command refused by the chamber',
          'device.commandTimedOut': 'command unanswered',
          'order.used': 'order used',
          'order.finished': 'order finished',
          'order.created': 'booking made',
          'order.cancelled': 'booking cancelled',
          'order.expired': 'order expired',
        },
        targetType: { account: 'account', device: 'device', order: 'order' },
      },
    },
  },
});
