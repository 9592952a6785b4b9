import { useGetList } from 'react-admin';
import { canAccess } from '../../domain/policy';
import type { Level, Role } from '../../domain/roles';
import { creatableLevels } from '../../resources/accounts/levels';

/**
 * The accounts below an account are those of its subtree at a strictly lower rank: the server scopes
 * `get_Admins` to the subtree (the account itself included), and the Level filter leaves the account out.
 */
export const teamFilter = (level: Level) => ({ Level: creatableLevels(level) });

/** A client manages no accounts: it may not list them, and has nobody below it. */
export const hasTeam = (role: Role, level: Level): boolean =>
  canAccess(role, { action: 'list', resource: 'accounts' }) && creatableLevels(level).length > 0;

/** Only the total of a list is wanted: one record per page is the cheapest ask. */
const COUNT_PAGE = { page: 1, perPage: 1 };

/** How many devices the account manages and how many accounts are below it, as the server scopes them. */
export const useAccountCounts = (role: Role, level: Level) => {
  const devices = useGetList('devices', { pagination: COUNT_PAGE });
  const team = useGetList('accounts', { pagination: COUNT_PAGE, filter: teamFilter(level) }, { enabled: hasTeam(role, level) });
  return { devices: devices.total, team: hasTeam(role, level) ? team.total : 0 };
};
