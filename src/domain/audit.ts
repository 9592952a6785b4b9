/**
 * The audit trail's vocabulary, shared by the server that records entries and the console that
 * lists and labels them. An action is `<target type>.<verb>`.
 */
export const AUDIT_ACTIONS = [
  'auth.signIn',
  'auth.signInRefused',
  'auth.signOut',
  // One of one's own sessions ended from the user settings.
  'auth.revokeSession',
  'account.create',
  'account.resetPassword',
  'account.changeOwnPassword',
  'account.assignDevices',
  'account.update',
  'account.delete',
  // The user settings (docs/user-settings.md): one's basic information and certificate, an approver's decision.
  'account.saveInfo',
  'account.submitCertificate',
  'account.decideCertificate',
  // An account's own choice of which alarms reach it on which channels, and its quiet hours (docs/notifications.md).
  'account.notificationPreferences',
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
  // An unacknowledged alarm's notification sent on to the administrators above (docs/notifications.md).
  'alarm.escalate',
  'alarmRule.update',
  // Parameter approval (docs/approval.md): a request, its amendment, its signed decision or cancellation, and a refused signature.
  'settingRequest.request',
  'settingRequest.amend',
  'settingRequest.approve',
  'settingRequest.reject',
  'settingRequest.cancel',
  'settingRequest.signatureRefused',
  // A template form submitted (src/domain/channelForm.ts).
  'channelForm.submit',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_TARGET_TYPES = ['account', 'device', 'deviceType', 'order', 'alarm', 'alarmRule', 'settingRequest', 'channelForm'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The writes the REST API derives for a resource (server/rest/writes.ts), named as the policy's actions. */
export const WRITE_VERBS = ['create', 'edit', 'delete'] as const;
export type WriteVerb = (typeof WRITE_VERBS)[number];

/**
 * A derived write's action, `<resource name>.<verb>` (`sites.create`), with the resource's name as its
 * target type: a new resource needs no line in the lists above, and the audit log labels these from the
 * resource's own name (withWrittenActions in src/resources/audit-log/config.ts).
 */
type ResourceWriteAction = `${string}.${WriteVerb}`;

/**
 * Resources whose writes were audited before the derived writes existed keep their shipped names, so
 * their old and new entries read and filter alike.
 */
const SHIPPED_WRITE_NAMES: Readonly<Record<string, { targetType: AuditTargetType; actions: Partial<Record<WriteVerb, AuditAction>> }>> = {
  'device-types': { targetType: 'deviceType', actions: { edit: 'deviceType.update' } },
  'alarm-rules': { targetType: 'alarmRule', actions: { edit: 'alarmRule.update' } },
};

/** How a derived write is audited; `derived` tells it from a hand-written change, whose names the lists above check. */
export interface DerivedWriteAudit {
  action: AuditAction | ResourceWriteAction;
  targetType: string;
  derived: true;
}

/** How a derived write on `resource` is audited: its action and its target type. */
export const writeAudit = (resource: string, verb: WriteVerb): DerivedWriteAudit => {
  const shipped = Object.hasOwn(SHIPPED_WRITE_NAMES, resource) ? SHIPPED_WRITE_NAMES[resource] : undefined;
  return { action: shipped?.actions[verb] ?? `${resource}.${verb}`, targetType: shipped?.targetType ?? resource, derived: true };
};

/** An entry as `GET /api/v1/audit-log` answers it (ra-data-simple-rest's shape: `id` first). */
export interface AuditEntry {
  id: number;
  /** Epoch milliseconds. */
  at: number;
  /** The account that acted; `system` for the server itself (order expiry, device sessions). */
  actor: string;
  action: AuditAction | ResourceWriteAction;
  /** One of AUDIT_TARGET_TYPES, or the name of a resource written through the derived writes. */
  targetType: string;
  targetId: string;
  deviceId: string | null;
  /** The client address, or `system`. */
  address: string;
  before: unknown;
  after: unknown;
}
