import { z } from 'zod';
import { ACCOUNT_MAX } from '../../domain/account';
import { PASSWORD_MAX } from '../../domain/auth';
import { newPasswordSchema } from '../../domain/password';
import { LEVELS } from '../../domain/roles';
import { deviceIdSchema } from '../devices/requests';
import { MAX_PAGE_SIZE } from '../query';
import { ACCOUNT_CALLS, ACCOUNT_ENDPOINTS } from './config';

/**
 * The account calls' bodies (docs/product.md, "Wire contract"), one schema each, shared by the console's
 * forms, the msw mocks and the server. Every object is strict: an unknown field is refused by name.
 */

/** At most this many devices in one assignment (a site's fleet, not the world's). */
const MAX_ASSIGNED_DEVICES = 1000;

const accountNameSchema = z.string().trim().min(1).max(ACCOUNT_MAX);
const deviceIdsSchema = z.array(deviceIdSchema).max(MAX_ASSIGNED_DEVICES);

/** `add_Admin` (alias `createUser`): a new account under the caller, at a strictly lower level (1–3). */
export const addAdminBodySchema = z.strictObject({
  Account: accountNameSchema,
  Code: newPasswordSchema,
  Level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  DeviceIds: deviceIdsSchema.optional(),
});
export type AddAdminBody = z.infer<typeof addAdminBodySchema>;

/** `code/Admin_reset_Code` (alias `resetUserPwd`): answers `{ NewCode }`, shown once. */
export const adminResetBodySchema = z.strictObject({ Account: accountNameSchema });
export type AdminResetBody = z.infer<typeof adminResetBodySchema>;

/** `code/self_reset_Code` (alias `updateUserPwd`): the current password and a new one meeting the rule. */
export const selfResetBodySchema = z.strictObject({
  OldCode: z.string().min(1).max(PASSWORD_MAX),
  NewCode: newPasswordSchema,
});
export type SelfResetBody = z.infer<typeof selfResetBodySchema>;

/**
 * `assign_Devices`: the devices the account manages become exactly `DeviceIds` (each one the caller
 * manages itself); a device taken away is taken from the account's whole subtree too.
 */
export const assignDevicesBodySchema = z.strictObject({ Account: accountNameSchema, DeviceIds: deviceIdsSchema });
export type AssignDevicesBody = z.infer<typeof assignDevicesBodySchema>;

/**
 * `update_Admin`: an account's Level, its upper administrator (`SubAdmin`, by Account) and whether it is
 * disabled; a field left out is unchanged. Level is any level here, so that an unchanged super administrator's
 * 0 passes: the hierarchy's rules (src/domain/accountRules.ts) decide what may change, naming the field.
 */
export const updateAdminBodySchema = z.strictObject({
  Account: accountNameSchema,
  Level: z.literal(LEVELS).optional(),
  SubAdmin: accountNameSchema.nullable().optional(),
  Disabled: z.boolean().optional(),
});
export type UpdateAdminBody = z.infer<typeof updateAdminBodySchema>;

/** `delete_Admin`: refused while accounts sit below it. */
export const deleteAdminBodySchema = z.strictObject({ Account: accountNameSchema });
export type DeleteAdminBody = z.infer<typeof deleteAdminBodySchema>;

/** `code/Admin_reset_Code`'s answer. */
export interface ResetAnswer {
  NewCode: string;
}

/**
 * Other names of calls, alias → call, both relative to the upstream's prefix: the old console names
 * createUser, resetUserPwd, getUserInfo and updateUserPwd without details; they are the same calls as
 * add_Admin, Admin_reset_Code, /api/user/info and self_reset_Code (same body, rules and answer). The
 * server registers each as a copy of its call, the mocks answer each as its call.
 */
export const UPSTREAM_ALIASES: Readonly<Record<string, string>> = {
  '/createUser': ACCOUNT_ENDPOINTS.create,
  '/resetUserPwd': ACCOUNT_CALLS.resetPassword,
  '/getUserInfo': '/api/user/info',
  '/updateUserPwd': ACCOUNT_CALLS.changeOwnPassword,
};

/**
 * The old console's own mock of the account list: `GET list/user?current&pageSize`, answered as `get_Admins`
 * answers that page (the same records, scope and rights).
 */
export const OLD_ACCOUNT_LIST = '/list/user';
export const oldAccountListQuerySchema = z.strictObject({
  current: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
});
