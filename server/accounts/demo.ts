import { DEMO_ACCOUNTS, DEMO_ADMIN } from '../../src/domain/demo';
import type { AppContext } from '../context';
import { createAccount, findAccount } from './service';

/**
 * Creates whatever part of the demo chain (src/domain/demo.ts: one account per level, each under the one
 * above, under ADMIN_ACCOUNT) is missing; existing accounts are left as they are
 * (their passwords are not reset). Returns the names created.
 */
export const seedDemo = async (ctx: AppContext): Promise<string[]> => {
  const created: string[] = [];
  let upper = await findAccount(ctx, ctx.config.adminAccount);
  if (upper === undefined) {
    upper = await createAccount(ctx, {
      account: ctx.config.adminAccount,
      password: ctx.config.adminPassword ?? DEMO_ADMIN.password,
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
