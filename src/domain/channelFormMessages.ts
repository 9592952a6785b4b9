import type { Locale } from './locales';

/**
 * The template forms' rules by name (src/domain/channelForm.ts) and their messages: apart from the schema,
 * so the console's catalogues, which are in the first script, take the words without zod.
 */
export type ChannelFormRule =
  | 'activityNameRequired'
  | 'activityNamePattern'
  | 'activityNameTaken'
  | 'channelTypeRequired'
  | 'promotionTimeRequired'
  | 'promotionTimeOrder'
  | 'promoteLinkRequired'
  | 'promoteLinkPattern'
  | 'advertisingSourceRequired'
  | 'advertisingMediaRequired'
  | 'keywordRequired'
  | 'advertisingContentRequired'
  | 'textMax'
  | 'choiceRequired'
  | 'frameRate'
  | 'bitRate'
  | 'rateOrder'
  | 'invalid';

/**
 * Each rule's message, in both languages, without the field: the console shows it under the field, the server
 * and the mocks add the field's name. `{name}` is a parameter (server style; the console's catalogue converts it).
 */
export const CHANNEL_FORM_MESSAGES: Record<Locale, Record<ChannelFormRule, string>> = {
  'zh-CN': {
    activityNameRequired: '请输入活动名称',
    activityNamePattern: '输入汉字、字母或数字，最多20字符',
    activityNameTaken: '名为 {name} 的活动已创建',
    channelTypeRequired: '请选择渠道类型',
    promotionTimeRequired: '请选择推广时间',
    promotionTimeOrder: '推广结束时间不能早于开始时间',
    promoteLinkRequired: '请输入推广地址',
    promoteLinkPattern: '网址必须以 http:// 或 https:// 开头',
    advertisingSourceRequired: '请输入广告来源',
    advertisingMediaRequired: '请输入广告媒介',
    keywordRequired: '请选择关键词',
    advertisingContentRequired: '请输入广告内容',
    textMax: '最多不超过{max}字',
    choiceRequired: '请选择',
    frameRate: '输入范围[{min}, {max}]的整数',
    bitRate: '输入范围[{min}, {max}]的整数',
    rateOrder: '编码码率默认值须在最小值与最大值之间',
    invalid: '不是此表单的字段',
  },
  'en-US': {
    activityNameRequired: 'Please enter the activity name',
    activityNamePattern: 'Enter at most 20 Chinese characters, letters or digits',
    activityNameTaken: 'An activity named {name} was created already',
    channelTypeRequired: 'Please select a channel type',
    promotionTimeRequired: 'Please select the promotion time',
    promotionTimeOrder: 'The promotion cannot end before it starts',
    promoteLinkRequired: 'Please enter the promotion link',
    promoteLinkPattern: 'The link must start with http:// or https://',
    advertisingSourceRequired: 'Please enter the advertising source',
    advertisingMediaRequired: 'Please enter the advertising media',
    keywordRequired: 'Please select a keyword',
    advertisingContentRequired: 'Please enter the advertising content',
    textMax: 'At most {max} characters',
    choiceRequired: 'Please select one of the choices',
    frameRate: 'Enter a whole number from {min} to {max} fps',
    bitRate: 'Enter a whole number from {min} to {max} bps',
    rateOrder: 'The default rate must lie between the minimum and the maximum rate',
    invalid: 'Not a field of this form',
  },
};
