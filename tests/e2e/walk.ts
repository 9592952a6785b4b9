import type { Page } from 'playwright-core';
import { menuRoutesFor } from '../../src/domain/menu';
import type { Role } from '../../src/domain/roles';

/** The demo's account of each role (server/demo), as the browser tests sign in with them. */
export const DEMO_ACCOUNTS: Record<Role, { account: string; password: string }> = {
  admin: { account: 'admin', password: 'Admin2026' },
  user: { account: 'first', password: 'First2026' },
  lowUser: { account: 'second', password: 'Second2026' },
  client: { account: 'client', password: 'Client2026' },
};

/** The page's code has arrived and nothing shows it is still loading. */
export const settled = async (page: Page) => {
  await page.locator('[data-testid="navigation-progress"]').waitFor({ state: 'detached' });
  await page.waitForFunction(() => document.querySelectorAll('.MuiCircularProgress-root, .MuiSkeleton-root').length === 0);
};

/** Goes to `path` (a search allowed) inside the console, as its own links do (no reload: the page keeps its listeners). */
export const goWithin = async (page: Page, path: string) => {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.waitForURL((url) => url.pathname === new URL(path, url).pathname);
  await settled(page);
};

/** Every console route `role` may open: its routes in the route table and every entry of its menu. */
export const routesOf = async (page: Page, role: Role): Promise<string[]> => {
  // The resources' own entries join the menu after its routes; the audit log, every role's, comes last of them.
  await page.locator('[data-testid="console-menu"] a[href="/audit-log"]').waitFor();
  const menu = await page
    .locator('[data-testid="console-menu"] a[href^="/"]:not([target="_blank"])')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  return [...new Set([...menuRoutesFor(role).map(({ path }) => path), ...menu])];
};
