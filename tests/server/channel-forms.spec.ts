import { describe, expect, it } from 'vitest';
import { CHANNEL_FORM_SUBMIT_PATH } from '../../src/domain/channelForm';
import { VALID_GROUP, VALID_STEP } from '../fixtures/channelForms';
import { useFleetApp } from './fleet';
import { call, envelope } from './http';
import { STORE_KINDS, useStore } from './stores';

/**
 * `POST /upstream/api/channel-form/submit`: the template's step and group forms, checked by the shared
 * schema (src/domain/channelForm.ts), stored and audited together, answered in the old mock's shape;
 * every broken rule refused with 40000 naming its field in the caller's language.
 */

/** Each rule broken once, with the field the answer must name and its message in both languages. */
const BROKEN: { body: Record<string, unknown>; field: string; zh: string; en: string }[] = [
  { body: { ...VALID_STEP, activityName: '' }, field: 'activityName', zh: '请输入活动名称', en: 'Please enter the activity name' },
  { body: { ...VALID_STEP, activityName: 'a'.repeat(21) }, field: 'activityName', zh: '输入汉字、字母或数字，最多20字符', en: 'at most 20 Chinese characters, letters or digits' },
  { body: { ...VALID_STEP, channelType: undefined }, field: 'channelType', zh: '请选择渠道类型', en: 'Please select a channel type' },
  { body: { ...VALID_STEP, promotionStart: '' }, field: 'promotionStart', zh: '请选择推广时间', en: 'Please select the promotion time' },
  { body: { ...VALID_STEP, promotionEnd: '2026-01-01' }, field: 'promotionEnd', zh: '推广结束时间不能早于开始时间', en: 'cannot end before it starts' },
  { body: { ...VALID_STEP, promoteLink: '' }, field: 'promoteLink', zh: '请输入推广地址', en: 'Please enter the promotion link' },
  { body: { ...VALID_STEP, promoteLink: 'ftp://example.com' }, field: 'promoteLink', zh: '网址必须以 http:// 或 https:// 开头', en: 'must start with http:// or https://' },
  { body: { ...VALID_STEP, advertisingSource: ' ' }, field: 'advertisingSource', zh: '请输入广告来源', en: 'Please enter the advertising source' },
  { body: { ...VALID_STEP, advertisingMedia: '' }, field: 'advertisingMedia', zh: '请输入广告媒介', en: 'Please enter the advertising media' },
  { body: { ...VALID_STEP, keyword: [] }, field: 'keyword', zh: '请选择关键词', en: 'Please select a keyword' },
  { body: { ...VALID_STEP, advertisingContent: '' }, field: 'advertisingContent', zh: '请输入广告内容', en: 'Please enter the advertising content' },
  { body: { ...VALID_STEP, advertisingContent: '字'.repeat(201) }, field: 'advertisingContent', zh: '最多不超过200字', en: 'At most 200 characters' },
  { body: { ...VALID_GROUP, videoAcquisitionFrameRate: 31 }, field: 'videoAcquisitionFrameRate', zh: '输入范围[1, 30]的整数', en: 'from 1 to 30 fps' },
  { body: { ...VALID_GROUP, videoEncodingFrameRate: 0 }, field: 'videoEncodingFrameRate', zh: '输入范围[1, 30]的整数', en: 'from 1 to 30 fps' },
  { body: { ...VALID_GROUP, videoRateMin: 149 }, field: 'videoRateMin', zh: '输入范围[150, 1800]的整数', en: 'from 150 to 1800 bps' },
  { body: { ...VALID_GROUP, audioEncodingRate: 1801 }, field: 'audioEncodingRate', zh: '输入范围[150, 1800]的整数', en: 'from 150 to 1800 bps' },
  { body: { ...VALID_GROUP, videoRateDefault: 1000, videoRateMax: 900 }, field: 'videoRateDefault', zh: '须在最小值与最大值之间', en: 'between the minimum and the maximum' },
  { body: { ...VALID_GROUP, description: 'x'.repeat(201) }, field: 'description', zh: '最多不超过200字', en: 'At most 200 characters' },
];

describe.each(STORE_KINDS)('the template forms submit (%s)', (kind) => {
  const store = useStore(kind);
  const fleet = useFleetApp(store);
  const submit = (body: unknown, token: string | undefined, lang = 'zh-CN') => call(fleet.app, CHANNEL_FORM_SUBMIT_PATH, body, { token, lang });

  it('stores and audits a valid step form and group form, answering as the old mock did', async () => {
    for (const body of [VALID_STEP, VALID_GROUP]) {
      const response = await submit(body, fleet.tokens.client);
      expect(response.statusCode).toBe(200);
      expect(envelope(response)).toMatchObject({ data: 'ok', status: 'ok', code: 20000 });
    }
    const rows = await store.database.db.selectFrom('channel_forms').selectAll().orderBy('id').execute();
    expect(rows.map(({ form, activity_name, body }) => [form, activity_name, JSON.parse(body)])).toEqual([
      ['step', VALID_STEP.activityName, VALID_STEP],
      ['group', null, VALID_GROUP],
    ]);
    const audited = await store.database.db.selectFrom('audit_log').select(['actor_account', 'target_id', 'after']).where('action', '=', 'channelForm.submit').orderBy('id').execute();
    expect(audited.map(({ actor_account, target_id, after }) => [actor_account, target_id, JSON.parse(after ?? 'null')])).toEqual([
      ['client', String(rows[0]?.id), VALID_STEP],
      ['client', String(rows[1]?.id), VALID_GROUP],
    ]);
  });

  it('refuses each broken rule with 40000 naming the field, in both languages, storing nothing', async () => {
    for (const { body, field, zh, en } of BROKEN) {
      for (const [lang, text] of [['zh-CN', zh], ['en-US', en]] as const) {
        const response = await submit(body, fleet.tokens.admin, lang);
        expect(response.statusCode, `${field} ${lang}`).toBe(400);
        const { code, msg } = envelope(response);
        expect(code).toBe(40000);
        expect(msg, `${field} ${lang}`).toContain(text);
        expect(msg).toContain(`${field}`);
      }
    }
    expect(await store.database.db.selectFrom('channel_forms').select('id').execute()).toEqual([]);
  });

  it('refuses a field neither form has, and a second activity of the same name', async () => {
    expect(envelope(await submit({ ...VALID_GROUP, bitrate: 1 }, fleet.tokens.admin, 'en-US')).msg).toBe('unknown field: bitrate');
    expect((await submit(VALID_STEP, fleet.tokens.first)).statusCode).toBe(200);
    const again = await submit(VALID_STEP, fleet.tokens.second, 'en-US');
    expect(again.statusCode).toBe(400);
    expect(envelope(again).msg).toBe(`An activity named ${VALID_STEP.activityName} was created already (activityName)`);
    expect(await store.database.db.selectFrom('channel_forms').select('id').execute()).toHaveLength(1);
  });

  it('answers 50008 to a caller not signed in', async () => {
    const response = await submit(VALID_STEP, undefined);
    expect(envelope(response).code).toBe(50008);
  });
});
