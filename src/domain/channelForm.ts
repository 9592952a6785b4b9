import { z } from 'zod';
import type { ChannelFormRule } from './channelFormMessages';


/**
 * The template's step form (channel creation) and group form (video and audio parameters), with the old
 * console's validation rules (docs/product.md, "Template pages"). One schema for the console's forms, the
 * mocks and the server: each rule names its message by a key (`ChannelFormRule`), which the console
 * words under `app.channelForm.error.*` and the server under `channelForm.*`, in both languages.
 */
export const CHANNEL_FORM_SUBMIT_PATH = '/api/channel-form/submit';
/** The policy's name of the two forms (src/domain/policy.ts): opening them is `list`, submitting `create`. */
export const CHANNEL_FORM_RESOURCE = 'channel-form';

/** The old console's "at most 20 Chinese characters, letters or digits". */
const ACTIVITY_NAME_PATTERN = /^[a-zA-Z0-9\u4e00-\u9fa5]{1,20}$/;
/** The old console's "200 words": its inputs' maxLength, so characters. */
const TEXT_MAX = 200;
const FRAME_RATE = { min: 1, max: 30 } as const;
const BIT_RATE = { min: 150, max: 1800 } as const;

export const CHANNEL_TYPES = ['app', 'web', 'api'] as const;
export const KEYWORDS = ['toutiao', 'volcano'] as const;
export const RESOLUTIONS = ['1280x720', '1920x1080', '3840x2160'] as const;
export const VIDEO_PROFILES = ['baseline', 'main', 'high'] as const;
export const AUDIO_CHANNELS = ['1', '2'] as const;
export const AUDIO_PROFILES = ['aac-lc', 'he-aac'] as const;

const rule = (key: ChannelFormRule) => ({ params: { messageKey: `channelForm.${key}` } });

const filled = (value: string) => value.trim() !== '';
/** Required text of at most TEXT_MAX characters. */
const requiredText = (required: ChannelFormRule) =>
  z.string().refine(filled, rule(required)).refine((value) => value.length <= TEXT_MAX, rule('textMax'));
const choice = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = z.string().refine((value) => DAY.test(value) && !Number.isNaN(Date.parse(value)), rule('promotionTimeRequired'));
const within = (range: { min: number; max: number }, key: ChannelFormRule) =>
  z.number().refine((value) => Number.isInteger(value) && value >= range.min && value <= range.max, rule(key));
const isHttpLink = (value: string) => {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
};

/** Step 1, basic information. */
const stepBasicSchema = z.strictObject({
  activityName: z.string().refine(filled, rule('activityNameRequired')).refine((value) => !filled(value) || ACTIVITY_NAME_PATTERN.test(value), rule('activityNamePattern')),
  channelType: choice(CHANNEL_TYPES),
  promotionStart: day,
  promotionEnd: day,
  promoteLink: z
    .string()
    .refine(filled, rule('promoteLinkRequired'))
    .refine((value) => !filled(value) || isHttpLink(value), rule('promoteLinkPattern'))
    .refine((value) => value.length <= TEXT_MAX, rule('textMax')),
});

/** Step 2, channel information. */
export const stepChannelSchema = z.strictObject({
  advertisingSource: requiredText('advertisingSourceRequired'),
  advertisingMedia: requiredText('advertisingMediaRequired'),
  keyword: z.array(choice(KEYWORDS)).max(KEYWORDS.length).refine((values) => values.length > 0, rule('keywordRequired')),
  pushNotify: z.boolean(),
  advertisingContent: requiredText('advertisingContentRequired'),
});

/** Whether `fields` of the value being checked are all of `type`: a rule across fields runs then, whatever else is wrong. */
const holds =
  (type: 'string' | 'number', ...fields: string[]) =>
  ({ value }: { value: unknown }) =>
    typeof value === 'object' && value !== null && fields.every((field) => typeof (value as Record<string, unknown>)[field] === type);

const promotionInOrder = <T extends { promotionStart: string; promotionEnd: string }>(schema: z.ZodType<T>) =>
  schema.refine((value) => value.promotionEnd >= value.promotionStart, {
    path: ['promotionEnd'],
    ...rule('promotionTimeOrder'),
    when: holds('string', 'promotionStart', 'promotionEnd'),
  });

export const stepBasicFormSchema = promotionInOrder(stepBasicSchema);

/** The whole step form, as submitted after step 2. */
export const stepFormSchema = promotionInOrder(z.strictObject({ form: z.literal('step'), ...stepBasicSchema.shape, ...stepChannelSchema.shape }));

const groupFields = z.strictObject({
  form: z.literal('group'),
  videoAcquisitionResolution: choice(RESOLUTIONS),
  videoAcquisitionFrameRate: within(FRAME_RATE, 'frameRate'),
  videoEncodingResolution: choice(RESOLUTIONS),
  videoRateMin: within(BIT_RATE, 'bitRate'),
  videoRateMax: within(BIT_RATE, 'bitRate'),
  videoRateDefault: within(BIT_RATE, 'bitRate'),
  videoEncodingFrameRate: within(FRAME_RATE, 'frameRate'),
  videoProfile: choice(VIDEO_PROFILES),
  audioAcquisitionChannels: choice(AUDIO_CHANNELS),
  audioEncodingRate: within(BIT_RATE, 'bitRate'),
  audioEncodingChannels: choice(AUDIO_CHANNELS),
  audioProfile: choice(AUDIO_PROFILES),
  description: z.string().refine((value) => value.length <= TEXT_MAX, rule('textMax')),
});

/** The group form: every rate within its range, and the default video rate between the minimum and the maximum. */
export const groupFormSchema = groupFields.refine(
  (value) => value.videoRateMin <= value.videoRateDefault && value.videoRateDefault <= value.videoRateMax,
  { path: ['videoRateDefault'], ...rule('rateOrder'), when: holds('number', 'videoRateMin', 'videoRateDefault', 'videoRateMax') },
);

/** `POST {API_PREFIX}/api/channel-form/submit` takes either form, told apart by `form`: the schema of the one `body` names. */
/**
 * What a submit may carry at all: the fields of either form and nothing else. The server checks a body
 * against it first, so a field of neither form is refused like on every other call; the forms' rules and
 * their own messages come after, from the form's schema.
 */
export const channelFormFieldsSchema = z.strictObject(
  Object.fromEntries([...new Set([...Object.keys(stepBasicSchema.shape), ...Object.keys(stepChannelSchema.shape), ...Object.keys(groupFields.shape), 'form'])].map((key) => [key, z.unknown().optional()])),
);

export const channelFormSchemaFor = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { form?: unknown }).form === 'group' ? groupFormSchema : stepFormSchema;
export type StepFormBody = z.output<typeof stepFormSchema>;
export type GroupFormBody = z.output<typeof groupFormSchema>;
export type ChannelFormBody = StepFormBody | GroupFormBody;

/** The old console's answer to a submit: its success envelope around 'ok'. */
export const CHANNEL_FORM_ANSWER = 'ok';

/** What a rule-less issue on a field means: an empty or missing value, worded as the field's required rule. */
const FALLBACK: Record<string, ChannelFormRule> = {
  activityName: 'activityNameRequired',
  channelType: 'channelTypeRequired',
  promotionStart: 'promotionTimeRequired',
  promotionEnd: 'promotionTimeRequired',
  promoteLink: 'promoteLinkRequired',
  advertisingSource: 'advertisingSourceRequired',
  advertisingMedia: 'advertisingMediaRequired',
  keyword: 'keywordRequired',
  advertisingContent: 'advertisingContentRequired',
  videoAcquisitionFrameRate: 'frameRate',
  videoEncodingFrameRate: 'frameRate',
  videoRateMin: 'bitRate',
  videoRateMax: 'bitRate',
  videoRateDefault: 'bitRate',
  audioEncodingRate: 'bitRate',
  description: 'textMax',
};

/** A broken rule: the field (its wire name) and the rule's key with what its message needs. */
export interface ChannelFormProblem {
  field: string;
  rule: ChannelFormRule;
  params: Record<string, number>;
}

const RULE_PARAMS: Partial<Record<ChannelFormRule, Record<string, number>>> = {
  textMax: { max: TEXT_MAX },
  frameRate: FRAME_RATE,
  bitRate: BIT_RATE,
};

const ruleOf = (issue: z.core.$ZodIssue, field: string): ChannelFormRule => {
  const named = issue.code === 'custom' ? issue.params?.messageKey : undefined;
  if (typeof named === 'string' && named.startsWith('channelForm.')) return named.slice('channelForm.'.length) as ChannelFormRule;
  if (Object.hasOwn(FALLBACK, field)) return FALLBACK[field] as ChannelFormRule;
  return issue.code === 'invalid_value' || issue.code === 'invalid_type' ? 'choiceRequired' : 'invalid';
};

/**
 * Every broken rule of `value` under `schema`, the first per field, in the schema's order: the forms show
 * each under its field, the server and the mocks answer the first.
 */
export const channelFormProblems = (schema: z.ZodType, value: unknown): ChannelFormProblem[] => {
  const result = schema.safeParse(value);
  if (result.success) return [];
  const seen = new Set<string>();
  return result.error.issues.flatMap((issue) => {
    const field = issue.code === 'unrecognized_keys' ? (issue.keys[0] ?? '') : issue.path.map(String).join('.');
    if (seen.has(field)) return [];
    seen.add(field);
    const key = issue.code === 'unrecognized_keys' ? 'invalid' : ruleOf(issue, field);
    return [{ field, rule: key, params: RULE_PARAMS[key] ?? {} }];
  });
};
