import { isLevel, type Level } from '../src/domain/roles';
import { hierarchyOf, type Hierarchy, type ScopeViewer } from '../src/domain/scope/hierarchy';
import { listedDevicesOf, seesAccount, seesAuditEntry, seesDevice } from '../src/domain/scope/visibility';
import { accountsConfig } from '../src/resources/accounts/config';
import type { WireRecord } from '../src/resources/model';
import { mockAccountOf, mockLevelOf, type MockCredentials } from './auth';

/**
 * The mocks' scope (docs/scope.md, "The mocks"): the same model as the server's SQL (src/domain/scope/),
 * over the seeded tables, whatever accounts and fleet the seed holds. The hierarchy is the accounts table
 * (`Account`, its upper administrator `SubAdmin`, `Level`, its devices `DeviceIds`), the sign-in accounts it
 * does not list, and the devices table;
 * an account is named by its `Account`, as the mocks' accounts have no id of their own.
 */

/** How a resource's records are scoped: by the device a field names, as accounts, as audit entries, or not at all. */
type Scoping = { device: string } | 'accounts' | 'audit' | 'everyone';

/** Every mocked resource's scoping, as the server's lists scope them (a test checks that each resource has one). */
export const MOCK_SCOPING: Readonly<Record<string, Scoping>> = {
  devices: { device: 'Id' },
  'state-records': { device: 'Id' },
  orders: { device: 'Id' },
  'device-commands': { device: 'Id' },
  alarms: { device: 'deviceId' },
  // The server also limits a request to the viewer's subtree; the mocks scope it by its device alone.
  'setting-requests': { device: 'deviceId' },
  accounts: 'accounts',
  'audit-log': 'audit',
  // The types and the alarm rules name no device: every reader reads them all.
  'device-types': 'everyone',
  'alarm-rules': 'everyone',
  // The super administrator's alone, by the policy; they name no device.
  'notification-channels': 'everyone',
};

/** The server acting on its own, as an audit entry's actor. */
const SYSTEM_ACTOR = 'system';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export interface MockScope {
  /** The hierarchy the tables hold now (accounts and their devices change with the account calls). */
  hierarchy: () => Hierarchy<string>;
  /** Who the request looks as, or undefined when no one is signed in. */
  viewerOf: (request: Request) => ScopeViewer<string> | undefined;
  /** True when the request's viewer sees the device. */
  seesDevice: (request: Request, device: unknown) => boolean;
  /** The records of a resource the request's viewer sees, as it sees them (an account's DeviceIds narrowed to its own view). */
  visible: (request: Request, resource: string, records: readonly WireRecord[]) => WireRecord[];
}

export const mockScope = (tables: ReadonlyMap<string, WireRecord[]>, credentials: MockCredentials): MockScope => {
  const accounts = () => tables.get(accountsConfig.name) ?? [];

  // The accounts table, and the sign-in accounts it does not list (the demo's super administrator, for one).
  const hierarchy = (): Hierarchy<string> =>
    hierarchyOf(
      [
        ...accounts().map((record) => ({
          id: String(record.Account),
          parent: text(record.SubAdmin),
          level: (isLevel(record.Level) ? record.Level : 3) as Level,
        })),
        ...[...credentials]
          .filter(([account]) => !accounts().some((record) => record.Account === account))
          .map(([account, credential]) => ({ id: account, parent: credential.SubAdmin, level: credential.Level })),
      ],
      accounts().flatMap((record) => (Array.isArray(record.DeviceIds) ? record.DeviceIds : []).map((device) => ({ account: String(record.Account), device: String(device) }))),
      (tables.get('devices') ?? []).map((device) => String(device.Id)),
    );

  /**
   * The signed-in account, at the level its session acts at. A session switched to another role (the mock
   * mode's role switch) looks as the first account of that role that can sign in (else the first of that
   * role), so it sees a real scope of that role; an account the table does not hold looks as itself, with
   * no devices and no accounts below.
   */
  const viewerOf = (request: Request): ScopeViewer<string> | undefined => {
    const account = mockAccountOf(request);
    const level = mockLevelOf(request);
    if (account === undefined || level === undefined) return undefined;
    const model = hierarchy();
    if (model.accounts.get(account)?.level === level) return { id: account, level };
    const ofLevel = [...model.accounts.values()].filter((candidate) => candidate.level === level);
    const stand = model.accounts.has(account) ? (ofLevel.find((candidate) => credentials.has(candidate.id)) ?? ofLevel[0]) : undefined;
    return { id: stand === undefined ? account : stand.id, level };
  };

  const visible = (request: Request, resource: string, records: readonly WireRecord[]): WireRecord[] => {
    const viewer = viewerOf(request);
    const scoping = MOCK_SCOPING[resource] ?? 'everyone';
    if (scoping === 'everyone') return [...records];
    if (viewer === undefined) return [];
    const model = hierarchy();
    if (scoping === 'accounts') {
      return records
        .filter((record) => seesAccount(model, viewer, String(record.Account)))
        .map((record) => ({ ...record, DeviceIds: listedDevicesOf(model, viewer, String(record.Account)) }));
    }
    if (scoping === 'audit') {
      return records.filter((record) => {
        const actor = text(record.actor);
        return seesAuditEntry(model, viewer, { actor: actor === SYSTEM_ACTOR ? null : actor, device: text(record.deviceId) });
      });
    }
    return records.filter((record) => seesDevice(model, viewer, String(record[scoping.device])));
  };

  return {
    hierarchy,
    viewerOf,
    seesDevice: (request, device) => {
      const viewer = viewerOf(request);
      return viewer !== undefined && seesDevice(hierarchy(), viewer, String(device));
    },
    visible,
  };
};
