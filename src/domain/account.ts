/**
 * The longest account name: enough for any real one, short enough to refuse abuse. Apart from the
 * sign-in schemas (auth.ts), so the accounts' resource configuration brings no zod into the login
 * route's script (docs/console.md, "Loading").
 */
export const ACCOUNT_MAX = 64;
