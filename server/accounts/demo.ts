import type { Level } from '../../src/domain/roles';
import { DEMO_ADMIN_PASSWORD } from '../config';
import type { AppContext } from '../context';
import { createAccount, findAccount } from './service';

/**
 * Demo accounts (`--demo`), one per level, each under the one above. The README shows these
 * passwords. The super administrator is ADMIN_ACCOUNT (default admin / Admin2026 in demo mode).
 */
export const DEMO_ACCOUNTS: readonly { account: string; password: string; level: Level }[] = [
  { account: 'first', password: 'First2026', level: 1 },
  { account: 'second', password: 'Second2026', level: 2 },
  { account: 'client', password: 'Client2026', level: 3 },
];

/**
 * Creates whatever part of the demo chain is missing; existing accounts are left as they are
 * (their passwords are not reset). Returns the names created.
 */
export const seedDemo = async (ctx: AppContext): Promise<string[]> => {
  const created: string[] = [];
  let upper = await findAccount(ctx, ctx.config.adminAccount);
  if (upper === undefined) {
    upper = await createAccount(ctx, {
      account: ctx.config.adminAccount,
      password: ctx.config.adminPassword ?? DEMO_ADMIN_PASSWORD,
      level: 0,
      subId: null,
    });
    created.push(upper.account);
  }
  for (const demo of DEMO_ACCOUNTS) {
    let row = await findAccount(ctx, demo.account);
    if (row === undefined) {
      row = await createAccount(ctx, { account: demo.account, password: demo.password, level: demo.level, subId: upper.id });
      created.push(row.account);
    }
    upper = row;
  }
  return created;
};
