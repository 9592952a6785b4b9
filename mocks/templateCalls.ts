import { http, type HttpHandler } from 'msw';
import { CODES } from '../src/domain/envelope';
import { seededRandomFor } from '../src/domain/random';
import {
  OLD_MOCK_PAGING,
  POLICY_CONTENT_TYPES,
  POLICY_FILTER_TYPES,
  POLICY_STATUSES,
  policyQuerySchema,
  popularQuerySchema,
  TEMPLATE_CALLS,
  type ChatRecord,
  type PolicyRecord,
  type PopularRecord,
  type ServiceRecord,
} from '../src/domain/templateCalls';
import { badInputMessage } from './access';
import { mockLevelOf } from './auth';
import { fail, ok } from './envelope';
import { languageOf } from './messages';

/**
 * The old console's template calls that a chamber fleet has no data for (src/domain/templateCalls.ts):
 * answered in the template's shapes, with its paging (55 policies, page 1 of 10 by default), in the
 * caller's language, to a signed-in caller. Their data is fixed and seeded, never the fleet's: the server
 * does not answer these calls (docs/product.md, "The old console's mocked calls").
 */

type Texts = Record<'zh-CN' | 'en-US', string>;
const pick = (texts: Texts, request: Request) => texts[languageOf(request)];

const pad = (value: number) => String(value).padStart(2, '0');
/** A time as the template's mocks wrote it: `YYYY-MM-DD HH:mm:ss`. */
const templateTime = (ms: number) => {
  const at = new Date(ms);
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())} ${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
};

const POLICY_FROM = Date.UTC(2021, 0, 1);
const POLICY_SPAN_MS = 365 * 86_400_000;

/** The template's 55 policies (`'list|55'`), the same on every run. */
const policies = (): PolicyRecord[] => {
  const random = seededRandomFor('api/list/policy');
  const one = <T>(choices: readonly T[]): T => choices[Math.floor(random() * choices.length)] as T;
  const letters = (n: number, from: string) => Array.from({ length: n }, () => one([...from])).join('');
  return Array.from({ length: OLD_MOCK_PAGING.total }, () => ({
    id: `${letters(1, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}${letters(1, 'abcdefghijklmnopqrstuvwxyz')}-${letters(1, '0123456789')}`,
    number: 10 + Math.floor(random() * 990),
    name: letters(4 + Math.floor(random() * 5), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'),
    contentType: one(POLICY_CONTENT_TYPES),
    filterType: one(POLICY_FILTER_TYPES),
    count: 10 + Math.floor(random() * 990),
    status: one(POLICY_STATUSES),
    createdTime: templateTime(POLICY_FROM + Math.floor(random() * POLICY_SPAN_MS)),
  }));
};

const quality = (title: Texts, time: string) => (request: Request): Omit<ServiceRecord, 'id'> => ({
  name: 'quality',
  title: pick(title, request),
  description: time,
  data: [
    { label: pick({ 'zh-CN': '待质检数', 'en-US': 'To inspect' }, request), value: '120' },
    { label: pick({ 'zh-CN': '积压时长', 'en-US': 'Backlog' }, request), value: '60s' },
    { label: pick({ 'zh-CN': '待抽检数', 'en-US': 'To sample' }, request), value: '0' },
  ],
});

const QUALITY_INSPECTION = [
  quality({ 'zh-CN': '视频类-历史导入', 'en-US': 'Video: imported history' }, '2021-10-12 00:00:00'),
  quality({ 'zh-CN': '图文类-图片版权', 'en-US': 'Image and text: image copyright' }, '2021-12-11 18:30:00'),
  quality({ 'zh-CN': '图文类-高清图片', 'en-US': 'Image and text: HD images' }, '2021-10-15 08:10:00'),
];

const service = (icon: string, title: Texts, description: Texts, enable: boolean, expires?: boolean) => (request: Request): Omit<ServiceRecord, 'id'> => ({
  icon,
  title: pick(title, request),
  description: pick(description, request),
  enable,
  actionType: 'button',
  ...(expires === undefined ? {} : { expires }),
});

const THE_SERVICE = [
  service('code', { 'zh-CN': '漏斗分析', 'en-US': 'Funnel analysis' }, { 'zh-CN': '用户行为分析之漏斗分析模型。', 'en-US': 'The funnel model of user behaviour analysis.' }, true),
  service('edit', { 'zh-CN': '用户分布', 'en-US': 'User distribution' }, { 'zh-CN': '快速诊断用户人群与地域细分。', 'en-US': 'Where users are, and how they group.' }, true, true),
  service('user', { 'zh-CN': '资源分发', 'en-US': 'Resource distribution' }, { 'zh-CN': '移动端动态化资源分发解决方案。', 'en-US': 'Dynamic resource distribution for mobile.' }, false),
  service('user', { 'zh-CN': '用户画像分析', 'en-US': 'User profiles' }, { 'zh-CN': '将典型用户信息标签化。', 'en-US': 'Typical users described by tags.' }, true),
];

const rule = (title: Texts, description: Texts, enable: boolean) => (request: Request): Omit<ServiceRecord, 'id'> => ({
  title: pick(title, request),
  description: pick(description, request),
  enable,
  actionType: 'switch',
});

const RULES_PRESET = [
  rule({ 'zh-CN': '内容屏蔽规则', 'en-US': 'Content blocking' }, { 'zh-CN': '根据特定标签过滤内容集合。', 'en-US': 'Filters content by tags.' }, true),
  rule({ 'zh-CN': '内容置顶规则', 'en-US': 'Pinned content' }, { 'zh-CN': '对固定的几条内容置顶。', 'en-US': 'Pins chosen content to the top.' }, true),
  rule({ 'zh-CN': '内容加权规则', 'en-US': 'Content weighting' }, { 'zh-CN': '自定义从不同内容集合获取内容的概率。', 'en-US': 'Weights the content sets.' }, false),
  rule({ 'zh-CN': '内容分发规则', 'en-US': 'Content placement' }, { 'zh-CN': '固定某些内容的展示位置。', 'en-US': 'Fixes where some content shows.' }, true),
  rule({ 'zh-CN': '违禁内容识别', 'en-US': 'Prohibited content' }, { 'zh-CN': '识别违规物品和违规行为。', 'en-US': 'Recognises prohibited goods and conduct.' }, false),
  rule({ 'zh-CN': '多语言文字符号识别', 'en-US': 'Multilingual text' }, { 'zh-CN': '识别多种语言与表情符号。', 'en-US': 'Recognises many languages and emoji.' }, false),
];

const POPULAR_KINDS: Record<'text' | 'image' | 'video', Texts> = {
  text: { 'zh-CN': '图文', 'en-US': 'Article' },
  image: { 'zh-CN': '图片', 'en-US': 'Image' },
  video: { 'zh-CN': '视频', 'en-US': 'Video' },
};
/** Five entries per type, as the template's lists: click counts as it wrote them ("346.3w+"), falling. */
const popular = (type: keyof typeof POPULAR_KINDS, request: Request): PopularRecord[] =>
  [346.3, 324.2, 318.9, 257.9, 124.2].map((clicks, index) => ({
    key: index + 1,
    clickNumber: `${type === 'text' ? clicks : Math.round(clicks) / 10}w+`,
    title: `${pick(POPULAR_KINDS[type], request)} ${index + 1}`,
    increases: [35, 22, 9, 17, 37][index] ?? 0,
  }));

/** The template's live chat: a few identical lines (`'data|4-6'`). */
const chat = (request: Request): ChatRecord[] =>
  Array.from({ length: 5 }, (_, index) => ({
    id: index + 1,
    username: pick({ 'zh-CN': '用户7352772', 'en-US': 'user7352772' }, request),
    content: pick({ 'zh-CN': '马上就开始了，好激动！', 'en-US': 'Starting soon, so exciting!' }, request),
    time: '13:09:12',
    isCollect: true,
  }));

/** One of the template's card lists, each record with an id of its own (the template's guid). */
const cards = (records: readonly ((request: Request) => Omit<ServiceRecord, 'id'>)[], prefix: string) => (request: Request) =>
  records.map((record, index): ServiceRecord => ({ id: `${prefix}-${index + 1}`, ...record(request) }));

/** The template's mocks matched any method; so do these. */
const signedIn = (base: string, path: string, answer: (request: Request) => Response) =>
  http.all(`${base}${path}`, ({ request }) => (mockLevelOf(request) === undefined ? fail(CODES.notSignedIn, 'not logged in') : answer(request)));

const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams);

export const templateCallHandlers = (base: string): HttpHandler[] => {
  const policyList = policies();
  return [
    signedIn(base, TEMPLATE_CALLS.policy, (request) => {
      const paging = policyQuerySchema.safeParse(query(request));
      if (!paging.success) return fail(CODES.badInput, badInputMessage(paging.error));
      const { current, pageSize } = paging.data;
      return ok({ list: policyList.slice((current - 1) * pageSize, current * pageSize), total: OLD_MOCK_PAGING.total });
    }),
    signedIn(base, TEMPLATE_CALLS.qualityInspection, (request) => ok(cards(QUALITY_INSPECTION, 'quality')(request))),
    signedIn(base, TEMPLATE_CALLS.theService, (request) => ok(cards(THE_SERVICE, 'service')(request))),
    signedIn(base, TEMPLATE_CALLS.rulesPreset, (request) => ok(cards(RULES_PRESET, 'rule')(request))),
    signedIn(base, TEMPLATE_CALLS.popular, (request) => {
      const type = popularQuerySchema.safeParse(query(request));
      return type.success ? ok(popular(type.data.type, request)) : fail(CODES.badInput, badInputMessage(type.error));
    }),
    signedIn(base, TEMPLATE_CALLS.chat, (request) => ok(chat(request))),
  ];
};
