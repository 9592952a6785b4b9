import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { Loading, usePermissions } from 'react-admin';
import type { Role } from '../domain/roles';
import { mustChangeCode, PASSWORD_CHANGE_PATH, passwordChangePath } from '../providers/authProvider';
import { isTemplateRoute } from '../domain/menu';
import { useTemplatePages } from '../layout/settings/templatePages';
import { ExceptionPage, mayOpen, routesFor, type ConsoleRoute } from './routeTable';

/**
 * The permission guard (docs/console.md, "Routes and menu"): a page the role may open renders; otherwise the user goes to
 * the first page the role permits, or to not-found. A failed role load signs out (usePermissions does).
 * An account whose password was reset goes to the password form before anything else, and returns to
 * the page it asked for once the new password is set.
 */
export const RoleGuard = ({ route, children }: { route: ConsoleRoute; children: ReactNode }) => {
  const { pathname, search } = useLocation();
  const { permissions: role, isPending, error } = usePermissions<Role>();
  const templatePages = useTemplatePages();
  if (mustChangeCode() && route.path !== PASSWORD_CHANGE_PATH) return <Navigate to={passwordChangePath(`${pathname}${search}`)} replace />;
  // No role yet: the signed-out answer (null) may still be cached just after sign-in while the real one
  // loads; deciding on it would send the user away from a page they may open.
  if (isPending || error || !role) return <Loading />;
  // A template page that is off does not exist, for every role: not-found in place, as for an unknown path.
  if (isTemplateRoute(route) && !templatePages) return <ExceptionPage status={404} />;
  if (mayOpen(role, route)) return children;
  const fallback = routesFor(role)[0];
  return <Navigate to={fallback?.path ?? '/exception/404'} replace />;
};
