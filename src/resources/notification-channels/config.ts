import { CHANNEL_TYPES } from '../../domain/notifications';
import { defineResource } from '../types';

/**
 * The channels alarms are sent on beyond the console (docs/notifications.md): an SMTP server, or a webhook
 * (signed JSON, WeCom or DingTalk group robot, Slack incoming webhook). Super administrators only; served
 * by /api/v1/notification-channels (server/notifications/channels.ts), which never reads a saved URL or
 * secret back in full.
 */
export const notificationChannelsConfig = defineResource({
  name: 'notification-channels',
  menu: { group: 'list', order: 70, action: 'edit' },
  id: 'id',
  representation: 'name',
  defaultSort: { field: 'id', order: 'ASC' },
  adapter: 'rest',
  path: 'notification-channels',
  fields: {
    id: { kind: 'number', integer: true, min: 1, max: 1_000_000_000, views: ['list', 'sort', 'show'] },
    name: { kind: 'text', maxLength: 64, required: true, views: ['list', 'sort', 'filter', 'show', 'edit', 'create'] },
    type: { kind: 'enum', choices: CHANNEL_TYPES, required: true, views: ['list', 'filter', 'show', 'edit', 'create'] },
    enabled: { kind: 'boolean', defaultValue: true, views: ['list', 'show', 'edit', 'create'] },
    host: { kind: 'text', maxLength: 255, views: ['show', 'edit', 'create'] },
    port: { kind: 'number', integer: true, min: 1, max: 65535, views: ['show', 'edit', 'create'] },
    tls: { kind: 'boolean', defaultValue: true, views: ['show', 'edit', 'create'] },
    user: { kind: 'text', maxLength: 255, views: ['show', 'edit', 'create'] },
    from: { kind: 'text', maxLength: 255, views: ['show', 'edit', 'create'] },
    url: { kind: 'text', maxLength: 1024, views: ['list', 'show', 'edit', 'create'] },
    secret: { kind: 'text', maxLength: 255, views: ['show', 'edit', 'create'] },
  },
  labels: {
    'zh-CN': {
      name: '通知渠道 |||| 通知渠道',
      fields: {
        id: '编号',
        name: '名称',
        type: '类型',
        enabled: '启用',
        host: 'SMTP 服务器',
        port: '端口',
        tls: 'TLS',
        user: 'SMTP 用户名',
        from: '发件人',
        url: 'Webhook 地址',
        secret: '密钥 / 密码',
      },
      choices: { type: { email: '电子邮件 (SMTP)', webhook: '签名 JSON Webhook', wecom: '企业微信群机器人', dingtalk: '钉钉群机器人', slack: 'Slack' } },
    },
    'en-US': {
      name: 'Notification channel |||| Notification channels',
      fields: {
        id: 'No.',
        name: 'Name',
        type: 'Type',
        enabled: 'Enabled',
        host: 'SMTP host',
        port: 'Port',
        tls: 'TLS',
        user: 'SMTP user',
        from: 'From',
        url: 'Webhook URL',
        secret: 'Secret / password',
      },
      choices: { type: { email: 'E-mail (SMTP)', webhook: 'Signed JSON webhook', wecom: 'WeCom group robot', dingtalk: 'DingTalk robot', slack: 'Slack' } },
    },
  },
});
