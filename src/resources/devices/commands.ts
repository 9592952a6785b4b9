import { z } from 'zod';
import { DEVICE_ID_MAX, DEVICE_ID_PATTERN, DEVICE_PERMISSIONS, DEVICE_STATES } from './config';

/**
 * The device commands' bodies (spec point 7), shared by the console, the msw mocks and the server. An
 * empty Id is the spec's own answer (code 401 'device ID cannot be empty'); the server puts that check
 * first (server/devices/update.ts, withDeviceId).
 */
export const deviceIdSchema = z.string().trim().min(1).max(DEVICE_ID_MAX).regex(DEVICE_ID_PATTERN);

/** `order/change_permission`: toggles Open/Close, or sets `Permission` when given (no race between two clicks). */
export const changePermissionBodySchema = z.strictObject({ Id: deviceIdSchema, Permission: z.enum(DEVICE_PERMISSIONS).optional() });
export type ChangePermissionBody = z.infer<typeof changePermissionBodySchema>;

/** `order/change_state`: Work, Stop or Repair. */
export const changeStateBodySchema = z.strictObject({ Id: deviceIdSchema, State: z.enum(DEVICE_STATES) });
export type ChangeStateBody = z.infer<typeof changeStateBodySchema>;
