import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * Table types, portable between SQLite and PostgreSQL: times are epoch milliseconds in integer
 * (SQLite) / bigint (PostgreSQL, parsed to number) columns, flags are integers 0 or 1 on both.
 */

interface AccountsTable {
  id: Generated<number>;
  account: string;
  password_hash: string;
  /** 0 super administrator … 3 ordinary user. */
  level: number;
  /** The upper-level administrator; null only for a super administrator at the root. */
  sub_id: number | null;
  must_change_code: number;
  disabled: number;
  avatar: string;
  created_at: number;
  updated_at: number;
}

interface SessionsTable {
  /** sha256 of the bearer token, hex; the token itself is never stored. */
  token_hash: string;
  account_id: number;
  created_at: number;
  last_used_at: number;
  /** Absolute expiry: created_at + TOKEN_MAX_HOURS. */
  expires_at: number;
  revoked_at: number | null;
}

export type LoginFailureKind = 'account' | 'address';

interface LoginFailuresTable {
  id: Generated<number>;
  kind: LoginFailureKind;
  /** The account name as typed (trimmed), or the client address. */
  key: string;
  at: number;
}

/**
 * A chamber (docs/product.md, "Devices and readings"). `id` is the device Id of the wire, also its MQTT
 * username. Wire names (Id, Type, Permission, …) are mapped at the list boundary (server/lists/).
 */
export interface DevicesTable {
  id: string;
  name: string;
  /** 1–5. */
  type: number;
  /** 'Open' | 'Close'. */
  permission: string;
  location: string;
  /** 'Work' | 'Stop' | 'Repair'. */
  state: string;
  /** The order the chamber is running now, if any. */
  order_num: string | null;
  /** Emergency rapid depressurisation active, 0/1. */
  erd: number;
  online: number;
  last_seen_at: number | null;
  /** Hash of the device's MQTT secret; null until one is issued. */
  secret_hash: string | null;
  created_at: number;
  updated_at: number;
  /** The newest reading, its telemetry payload as JSON (src/domain/live.ts liveReadingSchema); null before the first. */
  latest: string | null;
  /** The operation code of the running session (a sessionStart event), null when none runs. */
  session_oc: string | null;
  session_started_at: number | null;
}

/** The devices an account manages (the super administrator manages all without rows here). */
interface AccountDevicesTable {
  account_id: number;
  device_id: string;
  created_at: number;
}

/** A booking (docs/product.md, "Orders"). */
interface OrdersTable {
  id: Generated<number>;
  order_num: string;
  device_id: string;
  /** Created (the wire's Time). */
  time: number;
  /** Booking time (SetT). */
  set_t: number | null;
  /** Operation code (OC). */
  oc: string | null;
  /** The booking person's id on the messaging platform (OpenId). */
  open_id: string | null;
  is_used: number;
  /** Expired or timed out (IsPass). */
  is_pass: number;
  finished_at: number | null;
}

/**
 * One device report (docs/product.md: a reading is identified by its device and Time, unique). Columns
 * are the wire names in snake_case: l = L, rcpi02 = RCPi02, hm_sp02 = HmSP02, …
 */
interface StateRecordsTable {
  id: Generated<number>;
  device_id: string;
  /** Epoch milliseconds, as the device reports it. */
  time: number;
  l: number | null;
  sp: number | null;
  st: number | null;
  ss: string | null;
  sl: number | null;
  sa: number | null;
  rcp: number | null;
  rrd: number | null;
  rcpi02: number | null;
  rgpi02: number | null;
  rct: number | null;
  rcrh: number | null;
  hm_hr: number | null;
  hm_sp02: number | null;
  /** "systolic/diastolic". */
  hm_bp: string | null;
}

/**
 * One change (docs/product.md): who (actor, null for the system or an unknown name), what (action on
 * a target, with the state before and after as JSON), when, from where, and the device it concerns, which
 * decides who may read it.
 */
interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_id: number | null;
  actor_account: string;
  action: string;
  target_type: string;
  target_id: string;
  device_id: string | null;
  address: string;
  before: string | null;
  after: string | null;
}

/** A command sent to a device (`oc/{Id}/cmd`) and its outcome (src/domain/live.ts CommandStatus). */
interface DeviceCommandsTable {
  cmd_id: string;
  device_id: string;
  /** 'permission' | 'state' | 'settings'. */
  type: string;
  /** The command as sent, JSON. */
  payload: string;
  /** 'sent' | 'acked' | 'refused' | 'timeout'. */
  status: string;
  error: string | null;
  issued_by: number | null;
  issued_at: number;
  answered_at: number | null;
}

/** A message in an account's box (src/domain/messages.ts); `params` is JSON, rendered when listed. */
interface MessagesTable {
  id: Generated<number>;
  account_id: number;
  /** 'message' | 'notice' | 'todo'. */
  type: string;
  /** What made it (MessageKind). */
  kind: string;
  params: string;
  created_at: number;
  /** Null while unread. */
  read_at: number | null;
}

export interface DB {
  accounts: AccountsTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  devices: DevicesTable;
  account_devices: AccountDevicesTable;
  orders: OrdersTable;
  state_records: StateRecordsTable;
  audit_log: AuditLogTable;
  device_commands: DeviceCommandsTable;
  messages: MessagesTable;
}

export type AccountRow = Selectable<AccountsTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type NewDeviceRow = Insertable<DevicesTable>;
export type OrderRow = Selectable<OrdersTable>;
export type NewOrderRow = Insertable<OrdersTable>;
export type NewStateRecordRow = Insertable<StateRecordsTable>;

/** The flag columns hold 0 or 1 on both stores. */
export const flag = (value: boolean): number => (value ? 1 : 0);
export const isSet = (value: number | boolean | null | undefined): boolean => Number(value ?? 0) !== 0;
