/**
 * The words of a command to a chamber (docs/commands.md), apart from the schemas that use them
 * (mqtt/payloads.ts, live.ts): the resource configurations take them, and they are in the login
 * route's script, which carries no zod (docs/console.md, "Loading").
 */
export const CMD_ID_MAX = 64;
export const CMD_ID_PATTERN = /^[A-Za-z0-9_-]+$/;
export const COMMAND_TYPES = ['permission', 'state', 'settings'] as const;
export const COMMAND_STATUSES = ['sent', 'acked', 'refused', 'timeout'] as const;
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
