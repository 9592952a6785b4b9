/** Paths a signed-out visitor may be on without being asked to come back to them after sign-in. */
const PUBLIC_PATHS = ['/', '/login', '/account-help'];

/**
 * The login URL for a visitor leaving `location`: it names the page to return to (`redirect`) and keeps
 * the original query, as the old console's route guard did.
 */
export const loginPathFor = (location: { pathname: string; search: string }): string => {
  // Signed out again while on the login page (several failed calls): keep the page it already names.
  if (location.pathname === '/login') return `/login${location.search}`;
  if (PUBLIC_PATHS.includes(location.pathname)) return '/login';
  const query = new URLSearchParams(location.search);
  query.delete('redirect');
  const params = new URLSearchParams({ redirect: location.pathname });
  query.forEach((value, key) => params.append(key, value));
  return `/login?${params.toString()}`;
};

/** Where to go after sign-in: the `redirect` page with the rest of the query, or the landing page. */
export const afterLoginPath = (search: string, landingPath: string): string => {
  const query = new URLSearchParams(search);
  const redirect = query.get('redirect');
  query.delete('redirect');
  // Only same-origin console paths: `//host` or `http://` would turn sign-in into an open redirect.
  if (!redirect || !redirect.startsWith('/') || redirect.startsWith('//') || PUBLIC_PATHS.includes(redirect)) {
    return landingPath;
  }
  const rest = query.toString();
  return rest ? `${redirect}?${rest}` : redirect;
};
