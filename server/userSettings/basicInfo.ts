import { EMPTY_BASIC_INFO, type BasicInfo } from '../../src/domain/userSettings';
import { recordAudit, type AuditActor } from '../audit/trail';
import type { AppContext } from '../context';
import type { Caller } from '../accounts/calls';

/** The caller's basic information (docs/user-settings.md); all empty until it is first saved. */
export const readBasicInfo = async (ctx: Pick<AppContext, 'db'>, accountId: number): Promise<BasicInfo> => {
  const row = await ctx.db.selectFrom('account_profiles').selectAll().where('account_id', '=', accountId).executeTakeFirst();
  if (row === undefined) return EMPTY_BASIC_INFO;
  const { email, nickname, country_region: countryRegion, area, address, phone, profile } = row;
  return { email, nickname, countryRegion, area, address, phone, profile };
};

/**
 * `/api/user/save-info`: the caller's basic information, validated by the shared schema before it gets here,
 * stored and audited (before and after) in one transaction. Saving what is stored already writes nothing.
 */
export const saveBasicInfo = async (ctx: AppContext, me: Caller, actor: AuditActor, info: BasicInfo): Promise<void> => {
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await readBasicInfo({ db: trx }, me.id);
    if (JSON.stringify(before) === JSON.stringify(info)) return;
    const row = {
      email: info.email,
      nickname: info.nickname,
      country_region: info.countryRegion,
      area: info.area,
      address: info.address,
      phone: info.phone,
      profile: info.profile,
      updated_at: now,
    };
    await trx
      .insertInto('account_profiles')
      .values({ account_id: me.id, ...row })
      .onConflict((conflict) => conflict.column('account_id').doUpdateSet(row))
      .execute();
    await recordAudit(trx, actor, { action: 'account.saveInfo', targetType: 'account', targetId: me.account, before, after: info }, now);
  });
};
