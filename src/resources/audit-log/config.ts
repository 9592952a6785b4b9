import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES, WRITE_VERBS, writeAudit, type WriteVerb } from '../../domain/audit';
import type { Locale } from '../../domain/locales';
import { POLICY } from '../../domain/policy';
import { crudEnUS } from '../i18n/crud.en-US';
import { crudZhCN } from '../i18n/crud.zh-CN';
import { defineResource, type EnumFieldConfig, type ResourceConfig, type ResourceMessages } from '../types';

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
          'account.saveInfo': '保存本人基本信息',
          'account.submitCertificate': '提交操作员证书',
          'account.decideCertificate': '审核操作员证书',
          'auth.revokeSession': '结束本人的登录会话',
          'account.assignDevices': '分配设备',
          'account.update': '编辑账号',
          'account.delete': '删除账号',
          'account.notificationPreferences': '修改通知设置',
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
          'deviceType.update': '编辑设备类型',
          'order.used': '订单开始使用',
          'order.finished': '订单完成',
          'order.created': '预约下单',
          'order.cancelled': '取消预约',
          'order.expired': '订单过期',
          'alarm.raise': '报警产生',
          'alarm.change': '报警状态变化',
          'alarm.acknowledge': '报警确认',
          'alarm.shelve': '报警搁置',
          'alarm.unshelve': '报警取消搁置',
          'alarm.close': '报警停用关闭',
          'alarm.escalate': '报警通知逐级上报',
          'alarmRule.update': '报警规则修改',
          'settingRequest.request': '提交参数变更申请',
          'settingRequest.amend': '修改参数变更申请',
          'settingRequest.approve': '签名批准参数变更',
          'settingRequest.reject': '签名驳回参数变更',
          'settingRequest.cancel': '撤销参数变更申请',
          'settingRequest.signatureRefused': '签名被拒（密码错误）',
          'channelForm.submit': '模板表单提交',
        },
        targetType: { account: '账号', device: '设备', deviceType: '设备类型', order: '订单', alarm: '报警', alarmRule: '报警规则', settingRequest: '参数变更申请', channelForm: '模板表单' },
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
          'account.saveInfo': 'own basic information saved',
          'account.submitCertificate': 'operator certificate submitted',
          'account.decideCertificate': 'operator certificate decided',
          'auth.revokeSession': 'own session ended',
          'account.assignDevices': 'devices assigned',
          'account.update': 'account edited',
          'account.delete': 'account deleted',
          'account.notificationPreferences': 'notification settings changed',
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
          'deviceType.update': 'device type edited',
          'order.used': 'order used',
          'order.finished': 'order finished',
          'order.created': 'booking made',
          'order.cancelled': 'booking cancelled',
          'order.expired': 'order expired',
          'alarm.raise': 'alarm raised',
          'alarm.change': 'alarm state changed',
          'alarm.acknowledge': 'alarm acknowledged',
          'alarm.shelve': 'alarm shelved',
          'alarm.unshelve': 'alarm unshelved',
          'alarm.close': 'alarm closed out of service',
          'alarm.escalate': 'alarm notification escalated',
          'alarmRule.update': 'alarm rule changed',
          'settingRequest.request': 'settings change requested',
          'settingRequest.amend': 'settings request amended',
          'settingRequest.approve': 'settings change approved (signed)',
          'settingRequest.reject': 'settings change rejected (signed)',
          'settingRequest.cancel': 'settings request cancelled',
          'settingRequest.signatureRefused': 'signature refused (wrong password)',
          'channelForm.submit': 'template form submitted',
        },
        targetType: {
          account: 'account',
          device: 'device',
          deviceType: 'device type',
          order: 'order',
          alarm: 'alarm',
          alarmRule: 'alarm rule',
          settingRequest: 'settings request',
          channelForm: 'template form',
        },
      },
    },
  },
});

const WRITTEN: Record<Locale, Record<WriteVerb, string>> = { 'zh-CN': crudZhCN.crud.written, 'en-US': crudEnUS.crud.written };

/** A resource's name in the singular ('Site |||| Sites' → 'Site'). */
const singular = (config: ResourceConfig, locale: Locale): string => config.labels[locale].name.split('||||')[0]?.trim() ?? config.name;

const enumField = (config: ResourceConfig, source: string): EnumFieldConfig => {
  const field = config.fields[source];
  if (field?.kind !== 'enum') throw new Error(`${config.name}.${source} is not an enum`);
  return field;
};

/**
 * The audit log's configuration with the actions and target types of the derived writes (server/rest/writes.ts,
 * audited as src/domain/audit.ts's writeAudit names them) of every REST resource in `configs` that the policy
 * lets some role create, edit or delete: each labelled in both languages from the resource's own name
 * ("新建站点", "Site created"), so a new resource needs no line in src/domain/audit.ts nor in the audit
 * log's labels. Writes audited under a shipped name (a device type's edit) are already there.
 */
export const withWrittenActions = (audit: ResourceConfig, configs: readonly ResourceConfig[], policy: typeof POLICY = POLICY): ResourceConfig => {
  const action = enumField(audit, 'action');
  const targetType = enumField(audit, 'targetType');
  const written = configs
    .filter((config) => config.adapter === 'rest')
    .flatMap((config) => WRITE_VERBS.filter((verb) => policy[config.name]?.[verb] !== undefined).map((verb) => ({ config, verb, ...writeAudit(config.name, verb) })))
    .filter((write) => !action.choices.includes(write.action));
  if (written.length === 0) return audit;
  const targets = [...new Map(written.filter((write) => !targetType.choices.includes(write.targetType)).map((write) => [write.targetType, write.config])).entries()];
  const relabel = (locale: Locale): ResourceMessages => {
    const messages = audit.labels[locale];
    const actions = Object.fromEntries(written.map((write) => [write.action, WRITTEN[locale][write.verb].replace('%{name}', singular(write.config, locale))]));
    const types = Object.fromEntries(targets.map(([type, config]) => [type, singular(config, locale)]));
    return { ...messages, choices: { ...messages.choices, action: { ...messages.choices.action, ...actions }, targetType: { ...messages.choices.targetType, ...types } } };
  };
  const labels: ResourceConfig['labels'] = { 'zh-CN': relabel('zh-CN'), 'en-US': relabel('en-US') };
  return {
    ...audit,
    fields: {
      ...audit.fields,
      action: { ...action, choices: [...action.choices, ...written.map((write) => write.action)] },
      targetType: { ...targetType, choices: [...targetType.choices, ...targets.map(([type]) => type)] },
    },
    labels,
  };
};
