import { ANY_ROLE, roleListAllows, type Role, type RoleList } from './roles';

/**
 * The one role policy (docs/product.md, "What each role may do"). The authProvider, the msw handlers and
 * the server's guards all call canAccess, so each rule is written once, here. Scope (which accounts
 * and devices an account sees) is the model of ./scope/ on top of this table.
 */
export type Action =
  | 'list'
  | 'show'
  | 'export'
  | 'create'
  | 'edit'
  | 'delete'
  | 'changePermission'
  | 'changeState'
  | 'changeSettings'
  | 'assignDevices'
  | 'resetPassword'
  | 'acknowledge'
  | 'shelve'
  | 'clear'
  | 'cancel'
  | 'verify'
  | 'request'
  | 'approve'
  | 'reject'
  | 'test';

const everyone: RoleList = ['admin', 'user', 'lowUser', 'client'];
const administrators: RoleList = ['admin', 'user', 'lowUser'];
const upperAdministrators: RoleList = ['admin', 'user'];
const superAdministrator: RoleList = ['admin'];

const readable = { list: everyone, show: everyone, export: everyone };

/** A page any signed-in role may open, written as the old console's route table wrote it. */
const anyRole: RoleList = [ANY_ROLE];

/** Pages of the console that are not data resources (the route table's role lists); `list` is "may open it". */
const pages = {
  workplace: { list: anyRole },
  'oxygen-monitor': { list: anyRole },
  'monitor-dashboard': { list: anyRole },
  // The fleet's analysis: every role, each over its own chambers (docs/analysis.md).
  'data-analysis': { list: anyRole },
  'multi-dimension-analysis': { list: anyRole },
  // The old console listed only an empty role; docs/product.md opens it to every signed-in role.
  'user-info': { list: anyRole },
  'user-setting': { list: anyRole },
  // The basic profile shows one settings request (docs/approval.md): who may read requests may open it.
  'profile-basic': { list: administrators },
  'exception-403': { list: superAdministrator },
  'exception-404': { list: anyRole },
  'exception-500': { list: anyRole },
  // The template's step and group forms (src/domain/channelForm.ts) and the result pages their submit ends on.
  'channel-form': { list: anyRole, create: anyRole },
  'form-result': { list: anyRole },
} satisfies Record<string, Partial<Record<Action, RoleList>>>;

const data = {
  devices: {
    ...readable,
    changePermission: administrators,
    changeState: administrators,
    changeSettings: upperAdministrators,
    create: superAdministrator,
    edit: superAdministrator,
    delete: superAdministrator,
  },
  // Every role sees devices, so every role reads their types' names and rated maxima; only the admin edits them.
  'device-types': { ...readable, edit: superAdministrator },
  // The order list's route spells the last role 'clinet'; docs/product.md reads it as intended: all four roles.
  // Booking a chamber for a guest and cancelling an unused booking operate the chamber, as opening or closing it
  // does: the administrators' right; a client's guests book through the messaging platform (docs/orders.md).
  orders: { ...readable, create: administrators, cancel: administrators },
  records: readable,
  'state-records': readable,
  // A client manages no accounts, so user management is closed to it (docs/product.md).
  accounts: {
    list: administrators,
    show: administrators,
    export: administrators,
    create: administrators,
    // Within the hierarchy's rules (src/domain/accountRules.ts): only accounts strictly below the caller.
    edit: administrators,
    delete: administrators,
    assignDevices: administrators,
    resetPassword: administrators,
  },
  // docs/alarms.md, "Rights": a client acknowledges only; closing out of service is the upper administrators'.
  alarms: { ...readable, acknowledge: everyone, shelve: administrators, clear: upperAdministrators },
  'alarm-rules': { ...readable, edit: superAdministrator },
  // Checking the trail's hash chain reads every entry, beyond any other role's scope (docs/audit.md).
  'audit-log': { ...readable, verify: superAdministrator },
  // The commands sent to chambers and their outcomes, read by whoever sees the device (docs/commands.md).
  'device-commands': readable,
  // Each account's own message box: listing it and marking its messages read (docs/messages.md).
  messages: { list: everyone, edit: everyone },
  // Operators' certificates (docs/user-settings.md): an administrator above the holder approves or refuses one.
  certificates: { approve: administrators },
  // Parameter approval (docs/approval.md): a lowUser requests (and amends or cancels its own waiting request)
  // instead of changing settings; an administrator above it who manages the device approves or rejects. A higher
  // administrator may file a request too (no lower role may do more than a higher one); the console offers it
  // to the lowUser, who cannot send settings.
  'setting-requests': {
    list: administrators,
    show: administrators,
    export: administrators,
    request: administrators,
    cancel: administrators,
    approve: upperAdministrators,
    reject: upperAdministrators,
  },
  // The channels alarms go out on hold the fleet's SMTP password and chat robots' keys (docs/notifications.md).
  'notification-channels': {
    list: superAdministrator,
    show: superAdministrator,
    export: superAdministrator,
    create: superAdministrator,
    edit: superAdministrator,
    delete: superAdministrator,
    test: superAdministrator,
  },
  // Each account's own choice of what reaches it where.
  'notification-preferences': { show: everyone, edit: everyone },
} satisfies Record<string, Partial<Record<Action, RoleList>>>;

export const POLICY: Record<string, Partial<Record<Action, RoleList>>> = { ...pages, ...data };
export type PolicyResource = keyof typeof pages | keyof typeof data;

export interface AccessRequest {
  action: string;
  resource: string;
}

/** True when the role may do the action on the resource; unknown resources and actions are refused. */
export const canAccess = (role: Role | undefined, { action, resource }: AccessRequest): boolean => {
  if (!role) return false;
  const rules = Object.hasOwn(POLICY, resource) ? POLICY[resource] : undefined;
  const roles = rules && Object.hasOwn(rules, action) ? rules[action as Action] : undefined;
  return roles ? roleListAllows(roles, role) : false;
};
