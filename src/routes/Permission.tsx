import type { ReactNode } from 'react';
import { usePermissions } from 'react-admin';
import { roleListAllows, type Role, type RoleList } from '../domain/roles';

/**
 * The spec's permission directive as a component: its children show only when the signed-in role is
 * in `roles` ('*' is any role; an empty list is everyone, signed in or not). Nothing shows while the
 * role is loading. Leaving out `roles` is a programming error, so it throws rather than guess.
 *
 *   <Permission roles={['admin', 'user']}><DeleteButton /></Permission>
 */
export const Permission = ({ roles, children }: { roles: RoleList; children: ReactNode }) => {
  if (!Array.isArray(roles)) throw new Error('<Permission> needs the roles it allows, e.g. roles={["admin"]}');
  const { permissions: role, isPending } = usePermissions<Role | undefined>();
  if (roles.length === 0) return children;
  if (isPending || !role || !roleListAllows(roles, role)) return null;
  return children;
};
