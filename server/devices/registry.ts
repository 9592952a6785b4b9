import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { WireRecord } from '../../src/resources/model';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import { badInput } from '../http/envelope';
import type { Viewer } from '../scope/service';
import { claimDevice, deviceRecord } from './claim';
import type { DeviceEdit } from './update';

/**
 * Device registration and credentials (docs/product.md, "Device credentials"): the MQTT username is the
 * device Id, the password a secret issued at registration or rotation, answered once as `secret`.
 *
 * The secret is 32 random bytes (256 bits, node:crypto) in base64url: 43 characters. The server keeps
 * only `sha256:<hex of sha256(secret)>` in devices.secret_hash. A slow password hash (scrypt) protects
 * guessable human passwords; a 256-bit random secret cannot be guessed, so one fast hash is as safe
 * and lets the MQTT broker check a device on every connection without spending ~50 ms of CPU each
 * (a fleet reconnecting after a broker restart would otherwise queue for seconds). The prefix names
 * the scheme, so a later one can coexist.
 */

const SECRET_BYTES = 32;
const SCHEME = 'sha256:';

export const newDeviceSecret = (): string => randomBytes(SECRET_BYTES).toString('base64url');

export const hashDeviceSecret = (secret: string): string => `${SCHEME}${createHash('sha256').update(secret, 'utf8').digest('hex')}`;

/** A registered or rotated device: the device as the list answers it, and its new secret, shown once. */
export type DeviceWithSecret = WireRecord & { secret: string };

type RegistryContext = Pick<AppContext, 'db' | 'now' | 'link'>;

/**
 * Registers a device: `{ Id, name, Type, Location }`, permission Close, state Stop, offline, no
 * assignment (the super administrator manages every device by its level), and a new secret. Records
 * 'device.register' (never the secret). An existing Id → 40000 'device.exists' naming it; the Id of a
 * device removed with its history kept → 40000 'device.removedKeepsId'.
 */
export const registerDevice = (ctx: RegistryContext, viewer: Viewer, actor: AuditActor, device: DeviceEdit): Promise<DeviceWithSecret> =>
  ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    const secret = newDeviceSecret();
    // ON CONFLICT DO NOTHING (both stores): a concurrent registration of the same Id is refused, not an error.
    const result = await trx
      .insertInto('devices')
      .values({
        id: device.Id,
        name: device.name,
        type: device.Type,
        location: device.Location,
        permission: 'Close',
        state: 'Stop',
        order_num: null,
        erd: 0,
        online: 0,
        last_seen_at: null,
        secret_hash: hashDeviceSecret(secret),
        created_at: at,
        updated_at: at,
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) {
      const taken = await trx.selectFrom('devices').select('devices.removed_at').where('devices.id', '=', device.Id).executeTakeFirst();
      throw badInput((taken?.removed_at ?? null) === null ? 'device.exists' : 'device.removedKeepsId', { device: device.Id, field: 'Id' });
    }
    await recordAudit(
      trx,
      actor,
      {
        action: 'device.register',
        targetType: 'device',
        targetId: device.Id,
        deviceId: device.Id,
        after: { name: device.name, Type: device.Type, Location: device.Location },
      },
      at,
    );
    return { ...(await deviceRecord(trx, viewer, device.Id)), secret };
  });

/**
 * Issues a new secret for a device in the viewer's scope; the old one stops working at once: after the
 * commit its MQTT connection is ended (ctx.link), and the broker admits only the new secret. Records
 * 'device.rotateSecret' (no secret, no hash). Unknown or out of scope → 40400, nothing written.
 */
export const rotateDeviceSecret = async (ctx: RegistryContext, viewer: Viewer, actor: AuditActor, id: string): Promise<DeviceWithSecret> => {
  const rotated = await ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    await claimDevice(trx, viewer, id, at);
    const secret = newDeviceSecret();
    await trx.updateTable('devices').set({ secret_hash: hashDeviceSecret(secret) }).where('devices.id', '=', id).execute();
    await recordAudit(trx, actor, { action: 'device.rotateSecret', targetType: 'device', targetId: id, deviceId: id }, at);
    return { ...(await deviceRecord(trx, viewer, id)), secret };
  });
  ctx.link.disconnectDevice(id);
  return rotated;
};

/**
 * Removes a device in the viewer's scope: its assignments to accounts go, its secret is revoked, and after
 * the commit its MQTT connection is ended. A device with orders or state records keeps its row, marked
 * removed (`removed_at`, no secret): that history is kept (the tables reference the device without
 * cascade, migration 0003) and stays readable by whoever sees every device, while the device leaves every
 * list and can never connect or be written again. A device without such history is deleted outright, and
 * its Id is free again. Its audit entries, commands and alarms stay either way (no foreign key). Records
 * 'device.delete' with the device as it was, the accounts it was assigned to and whether its history was
 * kept. Answers the device as it was listed. Unknown, out of scope or already removed → 40400, nothing written.
 */
export const deleteDevice = async (ctx: RegistryContext, viewer: Viewer, actor: AuditActor, id: string): Promise<WireRecord> => {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const at = ctx.now();
    const record = await deviceRecord(trx, viewer, id);
    const device = await claimDevice(trx, viewer, id, at);
    const [orders, readings] = await Promise.all([
      trx.selectFrom('orders').select('orders.id').where('orders.device_id', '=', id).limit(1).executeTakeFirst(),
      trx.selectFrom('state_records').select('state_records.id').where('state_records.device_id', '=', id).limit(1).executeTakeFirst(),
    ]);
    const historyKept = orders !== undefined || readings !== undefined;
    const assigned = await trx
      .selectFrom('account_devices')
      .innerJoin('accounts', 'accounts.id', 'account_devices.account_id')
      .select('accounts.account')
      .where('account_devices.device_id', '=', id)
      .orderBy('accounts.account')
      .execute();
    await trx.deleteFrom('account_devices').where('account_devices.device_id', '=', id).execute();
    if (historyKept) await trx.updateTable('devices').set({ removed_at: at, secret_hash: null, online: 0 }).where('devices.id', '=', id).execute();
    else await trx.deleteFrom('devices').where('devices.id', '=', id).execute();
    await recordAudit(
      trx,
      actor,
      {
        action: 'device.delete',
        targetType: 'device',
        targetId: id,
        deviceId: id,
        before: {
          name: device.name,
          Type: device.type,
          Location: device.location,
          State: device.state,
          Permission: device.permission,
          assignedTo: assigned.map((row) => row.account),
        },
        after: { historyKept },
      },
      at,
    );
    return record;
  });
  ctx.link.disconnectDevice(id);
  return deleted;
};

/** A hash compared against when the device is unknown, so the answer takes the same time either way. */
const DUMMY_HASH = hashDeviceSecret(newDeviceSecret());

/**
 * True when `secret` is the current secret of device `id` (for the MQTT broker's authentication, per
 * connection). False for an unknown device, a device without a secret, or a wrong secret; the
 * comparison is constant-time and an unknown device costs the same hash and compare.
 */
export const verifyDeviceSecret = async (ctx: Pick<AppContext, 'db'>, id: string, secret: string): Promise<boolean> => {
  const row = id === '' ? undefined : await ctx.db.selectFrom('devices').select('devices.secret_hash').where('devices.id', '=', id).executeTakeFirst();
  const stored = row?.secret_hash ?? null;
  const expected = Buffer.from(stored ?? DUMMY_HASH, 'utf8');
  const actual = Buffer.from(hashDeviceSecret(secret), 'utf8');
  const same = expected.length === actual.length && timingSafeEqual(expected, actual);
  return same && stored !== null;
};
