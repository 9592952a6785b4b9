import { describe, expect, it } from 'vitest';
import { afterLoginPath, loginPathFor } from './loginPath';

describe('loginPathFor', () => {
  it('names the page to come back to and keeps the original query', () => {
    expect(loginPathFor({ pathname: '/list/device-manager', search: '?page=2&q=cabin' })).toBe(
      '/login?redirect=%2Flist%2Fdevice-manager&page=2&q=cabin',
    );
  });

  it('sends public pages to a plain login', () => {
    expect(loginPathFor({ pathname: '/', search: '' })).toBe('/login');
    expect(loginPathFor({ pathname: '/account-help', search: '?x=1' })).toBe('/login');
  });

  it('keeps the page the login URL already names when signed out again there', () => {
    expect(loginPathFor({ pathname: '/login', search: '?redirect=%2Fx&a=1' })).toBe('/login?redirect=%2Fx&a=1');
  });
});

describe('afterLoginPath', () => {
  it('returns to the redirect page with the rest of the query', () => {
    expect(afterLoginPath('?redirect=%2Flist%2Fdevice-manager&page=2', '/dashboard/workplace')).toBe(
      '/list/device-manager?page=2',
    );
  });

  it('lands on the landing page without a redirect', () => {
    expect(afterLoginPath('', '/dashboard/workplace')).toBe('/dashboard/workplace');
  });

  it.each(['//evil.example/x', 'https://evil.example', 'javascript:alert(1)', '/login'])(
    'refuses %s as a redirect target',
    (redirect) => {
      expect(afterLoginPath(`?redirect=${encodeURIComponent(redirect)}`, '/dashboard/workplace')).toBe('/dashboard/workplace');
    },
  );

  it('round-trips with loginPathFor', () => {
    const location = { pathname: '/other/order-list', search: '?status=open' };
    const search = loginPathFor(location).split('?')[1];
    expect(afterLoginPath(`?${search}`, '/dashboard/workplace')).toBe('/other/order-list?status=open');
  });
});
