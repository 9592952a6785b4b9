/**
 * The audit trail's vocabulary, shared by the server that records entries and the console that
 * lists and labels them. An action is `<target type>.<verb>`.
 */
export const AUDIT_ACTIONS = [
  'auth.signIn',
  'auth.signInRefused',
  'auth.signOut',
  'account.create',
  'account.resetPassword',
  'account.changeOwnPassword',
  'account.assignDevices',
  'account.update',
  'account.delete',
  'device.register',
  'device.rotateSecret',
  'device.delete',
  'device.update',
  'device.changePermission',
  'device.changeState',
  'device.changeSettings',
  // What became of a command sent to a chamber (docs/commands.md): its ack, its refusal, or no answer in time.
  'device.commandAcked',
  'device.commandRefused',
  'device.commandTimedOut',
  // An admin's edit of a device type's name or rated maximum pressure (docs/device-types.md).
  'deviceType.update',
  'order.created',
  'order.cancelled',
  'order.used',
  'order.finished',
  'order.expired',
  // The safety alarms (docs/alarms.md): raised and changed by the server, acted on by operators, rules edited by an admin.
  'alarm.raise',
  'alarm.change',
  'alarm.acknowledge',
  'alarm.shelve',
  'alarm.unshelve',
  'alarm.close',
  'alarmRule.update',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ['account', 'device', 'deviceType', 'order', 'alarm', 'alarmRule'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** An entry as `GET /api/v1/audit-log` answers it (ra-data-simple-rest's shape: `id` first). */
export interface AuditEntry {
  id: number;
  /** Epoch milliseconds. */
  at: number;
  /** The account that acted; `system` for the server itself (order expiry, device sessions). */
  actor: string;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: string;
  deviceId: string | null;
  /** The client address, or `system`. */
  address: string;
  before: unknown;
  after: unknown;
}
