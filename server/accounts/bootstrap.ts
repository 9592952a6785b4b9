import type { AppContext } from '../context';
import { randomPassword } from '../auth/passwords';
import { countAccounts, createAccount, findAccount } from './service';

export interface BootstrapResult {
  /** True when this start created the super administrator. */
  created: boolean;
  account?: string;
}

export type Print = (line: string) => void;

const stdoutPrint: Print = (line) => {
  process.stdout.write(`${line}\n`);
};

/** The one clearly visible notice of a generated password; it is never printed or logged again. */
const passwordNotice = (account: string, password: string): string => {
  const rule = '='.repeat(72);
  return [
    rule,
    `  Super administrator created: account "${account}", password: ${password}`,
    '  This password is shown only this once. Sign in and change it now.',
    rule,
  ].join('\n');
};

/**
 * On first start (no accounts at all) creates the super administrator (Level 0, no upper
 * administrator) from ADMIN_ACCOUNT / ADMIN_PASSWORD. Without ADMIN_PASSWORD it generates a strong
 * random password, prints it once through `print` (stdout, not the logger) and makes the account
 * choose a new one at its first sign-in. Does nothing when any account exists.
 */
export const bootstrap = async (ctx: AppContext, print: Print = stdoutPrint): Promise<BootstrapResult> => {
  if ((await countAccounts(ctx)) > 0) return { created: false };
  const { adminAccount, adminPassword } = ctx.config;
  const generated = adminPassword === undefined;
  const password = adminPassword ?? randomPassword();
  try {
    await createAccount(ctx, {
      account: adminAccount,
      password,
      level: 0,
      subId: null,
      mustChangeCode: generated,
    });
  } catch (error) {
    // Another process sharing the database bootstrapped at the same moment.
    if ((await findAccount(ctx, adminAccount)) !== undefined) return { created: false };
    throw error;
  }
  if (generated) print(passwordNotice(adminAccount, password));
  return { created: true, account: adminAccount };
};
