/** Account levels of the upstream and the console roles they map to (docs/product.md, "Levels and roles"). */
export const ROLES = ['admin', 'user', 'lowUser', 'client'] as const;
export type Role = (typeof ROLES)[number];

/** In a list of roles, any role at all (spec point 6). */
export const ANY_ROLE = '*';
/** The roles something is open to, as the spec writes them: role names, or '*' for every role. */
export type RoleList = readonly (Role | typeof ANY_ROLE)[];

export const roleListAllows = (roles: RoleList, role: Role): boolean => roles.includes(ANY_ROLE) || roles.includes(role);

export const LEVELS = [0, 1, 2, 3] as const;
export type Level = (typeof LEVELS)[number];

/** New accounts are ordinary users unless created otherwise. */
export const DEFAULT_LEVEL: Level = 3;

export const isLevel = (value: unknown): value is Level =>
  typeof value === 'number' && (LEVELS as readonly number[]).includes(value);

/** Level 0..3 → admin, user, lowUser, client; anything else is a client, the least privileged role. */
export const levelToRole = (level: unknown): Role => {
  const numeric = typeof level === 'string' && level.trim() !== '' ? Number(level) : level;
  return isLevel(numeric) ? ROLES[numeric] : 'client';
};

export const roleToLevel = (role: Role): Level => ROLES.indexOf(role) as Level;

/**
 * The role-switch helper's cycle (the mock mode's development aid): admin → user → lowUser → client → admin;
 * no role (or an unknown one) becomes client.
 */
export const nextRole = (role: string | null | undefined): Role => {
  const index = ROLES.indexOf(role as Role);
  return index === -1 ? 'client' : (ROLES[(index + 1) % ROLES.length] ?? 'client');
};

/** The mocks' role-switch call (the mock mode only; no server answers it): the session acts as that role from then on. */
export const MOCK_SWITCH_ROLE_PATH = '/mock/switch_role';
