import { describe, expect, it } from 'vitest';
import { VALID_GROUP, VALID_STEP } from '../../tests/fixtures/channelForms';
import { channelFormProblems, channelFormSchemaFor, groupFormSchema, stepBasicFormSchema, stepChannelSchema, stepFormSchema } from './channelForm';

/** The first broken rule of the field, as the forms and the server name it. */
const ruleOf = (schema: Parameters<typeof channelFormProblems>[0], value: unknown, field: string) =>
  channelFormProblems(schema, value).find((problem) => problem.field === field)?.rule;

describe('the step form (channel creation)', () => {
  it('accepts a complete form, and each step its own part', () => {
    expect(channelFormProblems(stepFormSchema, VALID_STEP)).toEqual([]);
    const { form: _form, advertisingSource, advertisingMedia, keyword, pushNotify, advertisingContent, ...basic } = VALID_STEP;
    expect(channelFormProblems(stepBasicFormSchema, basic)).toEqual([]);
    expect(channelFormProblems(stepChannelSchema, { advertisingSource, advertisingMedia, keyword, pushNotify, advertisingContent })).toEqual([]);
  });

  it('wants an activity name of at most 20 Chinese characters, letters or digits', () => {
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, activityName: '' }, 'activityName')).toBe('activityNameRequired');
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, activityName: '   ' }, 'activityName')).toBe('activityNameRequired');
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, activityName: undefined }, 'activityName')).toBe('activityNameRequired');
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, activityName: 'a'.repeat(21) }, 'activityName')).toBe('activityNamePattern');
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, activityName: 'spring sale' }, 'activityName')).toBe('activityNamePattern');
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, activityName: 'sale!' }, 'activityName')).toBe('activityNamePattern');
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, activityName: '活'.repeat(20) }, 'activityName')).toBeUndefined();
  });

  it('requires channel type, promotion time, link, source, media and keyword', () => {
    const empty = { form: 'step', activityName: 'ok', promoteLink: '', advertisingSource: '', advertisingMedia: '', keyword: [], pushNotify: true, advertisingContent: '' };
    expect(Object.fromEntries(channelFormProblems(stepFormSchema, empty).map(({ field, rule }) => [field, rule]))).toEqual({
      channelType: 'channelTypeRequired',
      promotionStart: 'promotionTimeRequired',
      promotionEnd: 'promotionTimeRequired',
      promoteLink: 'promoteLinkRequired',
      advertisingSource: 'advertisingSourceRequired',
      advertisingMedia: 'advertisingMediaRequired',
      keyword: 'keywordRequired',
      advertisingContent: 'advertisingContentRequired',
    });
  });

  it('wants a promote link starting with http:// or https://', () => {
    for (const link of ['ftp://example.com', 'example.com', 'javascript:alert(1)', 'http://']) {
      expect(ruleOf(stepFormSchema, { ...VALID_STEP, promoteLink: link }, 'promoteLink')).toBe('promoteLinkPattern');
    }
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, promoteLink: 'http://example.com' }, 'promoteLink')).toBeUndefined();
  });

  it('keeps advertising content to 200 characters, and the promotion in order', () => {
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, advertisingContent: 'x'.repeat(200) }, 'advertisingContent')).toBeUndefined();
    expect(channelFormProblems(stepFormSchema, { ...VALID_STEP, advertisingContent: 'x'.repeat(201) })).toEqual([
      { field: 'advertisingContent', rule: 'textMax', params: { max: 200 } },
    ]);
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, promotionEnd: '2026-02-28' }, 'promotionEnd')).toBe('promotionTimeOrder');
    // Named with the other problems, so the form shows them all at once.
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, channelType: '', promotionEnd: '2026-02-28' }, 'promotionEnd')).toBe('promotionTimeOrder');
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, promotionStart: '' }, 'promotionEnd')).toBeUndefined();
    expect(ruleOf(stepFormSchema, { ...VALID_STEP, keyword: ['other'] }, 'keyword.0')).toBe('choiceRequired');
  });

  it('refuses a field the form does not have', () => {
    expect(channelFormProblems(stepFormSchema, { ...VALID_STEP, extra: 1 })).toEqual([{ field: 'extra', rule: 'invalid', params: {} }]);
  });
});

describe('the group form (video and audio parameters)', () => {
  it('accepts the bounds of every range', () => {
    expect(channelFormProblems(groupFormSchema, VALID_GROUP)).toEqual([]);
  });

  it('holds frame rates to 1–30 and bit rates to 150–1800, whole numbers', () => {
    expect(channelFormProblems(groupFormSchema, { ...VALID_GROUP, videoAcquisitionFrameRate: 0, videoEncodingFrameRate: 31 })).toEqual([
      { field: 'videoAcquisitionFrameRate', rule: 'frameRate', params: { min: 1, max: 30 } },
      { field: 'videoEncodingFrameRate', rule: 'frameRate', params: { min: 1, max: 30 } },
    ]);
    expect(ruleOf(groupFormSchema, { ...VALID_GROUP, videoAcquisitionFrameRate: 2.5 }, 'videoAcquisitionFrameRate')).toBe('frameRate');
    expect(ruleOf(groupFormSchema, { ...VALID_GROUP, videoAcquisitionFrameRate: null }, 'videoAcquisitionFrameRate')).toBe('frameRate');
    expect(ruleOf(groupFormSchema, { ...VALID_GROUP, videoRateMin: 149 }, 'videoRateMin')).toBe('bitRate');
    expect(ruleOf(groupFormSchema, { ...VALID_GROUP, audioEncodingRate: 1801 }, 'audioEncodingRate')).toBe('bitRate');
  });

  it('wants the default rate between the minimum and the maximum, and a description of at most 200 characters', () => {
    expect(ruleOf(groupFormSchema, { ...VALID_GROUP, videoRateMin: 900, videoRateDefault: 800 }, 'videoRateDefault')).toBe('rateOrder');
    expect(ruleOf(groupFormSchema, { ...VALID_GROUP, videoRateMax: 700, videoEncodingFrameRate: 0 }, 'videoRateDefault')).toBe('rateOrder');
    expect(ruleOf(groupFormSchema, { ...VALID_GROUP, description: 'x'.repeat(201) }, 'description')).toBe('textMax');
    expect(ruleOf(groupFormSchema, { ...VALID_GROUP, videoProfile: undefined }, 'videoProfile')).toBe('choiceRequired');
  });

  it('is the schema a submit naming the group form is checked by', () => {
    expect(channelFormSchemaFor(VALID_GROUP)).toBe(groupFormSchema);
    expect(channelFormSchemaFor(VALID_STEP)).toBe(stepFormSchema);
    expect(channelFormSchemaFor(null)).toBe(stepFormSchema);
  });
});
