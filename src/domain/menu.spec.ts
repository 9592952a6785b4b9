import { describe, expect, it } from 'vitest';
import { ROLES } from './roles';
import { MENU_ROUTES, mayOpenRoute, menuRoutesFor } from './menu';

const route = (path: string) => {
  const found = MENU_ROUTES.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
};

describe('the route table', () => {
  it("opens a route listed for '*' to every role, and to nobody signed out", () => {
    for (const path of ['/dashboard/workplace', '/user/setting', '/exception/404']) {
      for (const role of ROLES) expect(mayOpenRoute(role, route(path)), `${role} ${path}`).toBe(true);
      expect(mayOpenRoute(undefined, route(path)), path).toBe(false);
    }
  });

  it('keeps a route listing roles to those roles', () => {
    expect(ROLES.filter((role) => mayOpenRoute(role, route('/exception/403')))).toEqual(['admin']);
    expect(menuRoutesFor('client').map(({ path }) => path)).not.toContain('/other/manager');
  });

  it('opens the real-time monitor, the device status and the readings history to every role, each on its own path', () => {
    for (const path of ['/dashboard/monitor', '/list/device-atts', '/list/readings']) {
      for (const role of ROLES) expect(mayOpenRoute(role, route(path)), `${role} ${path}`).toBe(true);
    }
    expect(route('/list/device-atts').resource).toBe('devices');
    expect(route('/list/readings').resource).toBe('state-records');
  });
});
