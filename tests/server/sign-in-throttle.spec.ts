import { beforeEach, describe, expect, it } from 'vitest';
import { CODES } from '../../src/domain/envelope';
import { seedDemo } from '../../server/accounts/demo';
import { addressKey } from '../../server/auth/throttle';
import { DEMO, envelope, login, type LoginData } from './http';
import { STORE_KINDS, useStore } from './stores';

/**
 * The sign-in throttle against an attacker (docs/server-auth.md, "Sign-in and throttling"): parallel tries
 * cannot outrun it, even through two server instances on one store; it slows the guessing pair, not the
 * owner elsewhere; a burst of sign-ins never refuses a correct one.
 */
describe.each(STORE_KINDS)('sign-in throttle (%s)', (kind) => {
  const store = useStore(kind);
  beforeEach(() => store.wipe());

  const attacker = '203.0.113.7';

  const failuresOfPair = async (account: string, address: string): Promise<number> => {
    const rows = await store.database.db
      .selectFrom('sign_in_attempts')
      .select('id')
      .where('account', '=', account)
      .where('address', '=', addressKey(address))
      .where('succeeded', '=', 0)
      .execute();
    return rows.length;
  };

  it('checks at most the limit when 60 tries arrive at once after 95 failures, through two instances', async () => {
    const env = { LOGIN_FAILURES_PER_PAIR_PER_HOUR: '100', LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '1000' };
    const first = await store.app({ env });
    const second = await store.app({ env });
    await seedDemo(first.ctx);
    const now = Date.now();
    await store.database.db
      .insertInto('sign_in_attempts')
      .values(Array.from({ length: 95 }, () => ({ account: 'admin', address: addressKey(attacker), at: now })))
      .execute();

    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(i % 2 === 0 ? first : second, 'admin', `Guess${i}Guess2026`, { address: attacker })),
    );
    const checked = answers.filter((answer) => answer.statusCode === 200);
    const throttled = answers.filter((answer) => answer.statusCode === 429);
    expect(checked.length + throttled.length).toBe(60);
    expect(checked.length).toBeLessThanOrEqual(5);
    for (const answer of checked) expect(envelope<LoginData>(answer).data.State).toBe(false);
    for (const answer of throttled) expect(envelope(answer).code).toBe(CODES.tooManyAttempts);
    expect(await failuresOfPair('admin', attacker)).toBe(95 + checked.length);
    // The right password from the guessing address is refused too: it is not even checked.
    expect((await login(first, DEMO.admin.Account, DEMO.admin.Code, { address: attacker })).statusCode).toBe(429);
  });

  it('slows the guessing address, not the owner signing in from elsewhere', async () => {
    const app = await store.app();
    await seedDemo(app.ctx);
    for (let i = 0; i < 20; i += 1) {
      expect(envelope<LoginData>(await login(app, 'admin', `Guess${i}Guess2026`, { address: attacker })).data.State).toBe(false);
    }
    const refused = await login(app, DEMO.admin.Account, DEMO.admin.Code, { address: attacker, lang: 'en-US' });
    expect(refused.statusCode).toBe(429);
    expect(envelope(refused).msg).toBe('too many failed sign-ins, try again later');
    // The owner, from an address it never used, still gets in.
    expect(envelope<LoginData>(await login(app, DEMO.admin.Account, DEMO.admin.Code, { address: '198.51.100.20' })).data.State).toBe(true);
  });

  it('lets the account in from an address it signed in from while many addresses guess it, and no stranger', async () => {
    const app = await store.app({ env: { LOGIN_FAILURES_PER_ACCOUNT_PER_HOUR: '5' } });
    await seedDemo(app.ctx);
    const office = '198.51.100.20';
    expect(envelope<LoginData>(await login(app, DEMO.admin.Account, DEMO.admin.Code, { address: office })).data.State).toBe(true);
    for (let i = 0; i < 5; i += 1) await login(app, 'admin', `Guess${i}Guess2026`, { address: `203.0.113.${i + 10}` });
    // The account's limit is reached: a new address is refused, even with the right password ...
    expect((await login(app, DEMO.admin.Account, DEMO.admin.Code, { address: '192.0.2.44' })).statusCode).toBe(429);
    // ... the office, known from its sign-in, is not.
    expect(envelope<LoginData>(await login(app, DEMO.admin.Account, DEMO.admin.Code, { address: office })).data.State).toBe(true);
  });

  it('answers a correct sign-in inside a burst of 150, and answers every sign-in of the burst', async () => {
    const app = await store.app();
    await seedDemo(app.ctx);
    const burst = Array.from({ length: 150 }, (_, i) => login(app, `guest${i}`, `Guess${i}Guess2026`, { address: attacker }));
    const owner = login(app, DEMO.admin.Account, DEMO.admin.Code, { address: '198.51.100.20' });
    const answers = await Promise.all(burst);
    expect(envelope<LoginData>(await owner).data.State).toBe(true);
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(envelope<LoginData>(answer).data.State).toBe(false);
    }
  });
});
