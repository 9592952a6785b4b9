import { z } from 'zod';

/**
 * The old console's template calls whose subject a chamber fleet does not have (content policies, quality
 * inspection queues, marketing services and rules, trending articles, a live chat): the mocks answer them
 * in the template's shapes, the server does not (docs/product.md, "The old console's mocked calls").
 * Paths are relative to the upstream's base.
 */
export const TEMPLATE_CALLS = {
  policy: '/api/list/policy',
  qualityInspection: '/api/list/quality-inspection',
  theService: '/api/list/the-service',
  rulesPreset: '/api/list/rules-preset',
  popular: '/api/popular/list',
  chat: '/api/chat/list',
} as const;

/** The old mocks' paging: page 1 of 10 by default, over 55 records. */
export const OLD_MOCK_PAGING = { current: 1, pageSize: 10, total: 55 } as const;

export const policyQuerySchema = z.object({
  current: z.coerce.number().int().min(1).default(OLD_MOCK_PAGING.current),
  pageSize: z.coerce.number().int().min(1).max(100).default(OLD_MOCK_PAGING.pageSize),
});

export const POLICY_CONTENT_TYPES = ['img', 'horizontalVideo', 'verticalVideo'] as const;
export const POLICY_FILTER_TYPES = ['artificial', 'rules'] as const;
export const POLICY_STATUSES = ['online', 'offline'] as const;

const policyRecordSchema = z.strictObject({
  id: z.string(),
  number: z.number().int(),
  name: z.string(),
  contentType: z.enum(POLICY_CONTENT_TYPES),
  filterType: z.enum(POLICY_FILTER_TYPES),
  count: z.number().int(),
  status: z.enum(POLICY_STATUSES),
  createdTime: z.string(),
});
export type PolicyRecord = z.infer<typeof policyRecordSchema>;
export const policyListSchema = z.strictObject({ list: z.array(policyRecordSchema), total: z.number().int() });

const serviceRecordSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  name: z.string().optional(),
  actionType: z.string().optional(),
  icon: z.string().optional(),
  data: z.array(z.strictObject({ label: z.string(), value: z.string() })).optional(),
  enable: z.boolean().optional(),
  expires: z.boolean().optional(),
});
export type ServiceRecord = z.infer<typeof serviceRecordSchema>;
export const serviceListSchema = z.array(serviceRecordSchema);

const POPULAR_TYPES = ['text', 'image', 'video'] as const;
export const popularQuerySchema = z.object({ type: z.enum(POPULAR_TYPES).default('text') });
const popularRecordSchema = z.strictObject({ key: z.number().int(), clickNumber: z.string(), title: z.string(), increases: z.number() });
export type PopularRecord = z.infer<typeof popularRecordSchema>;
export const popularListSchema = z.array(popularRecordSchema);

const chatRecordSchema = z.strictObject({ id: z.number().int(), username: z.string(), content: z.string(), time: z.string(), isCollect: z.boolean() });
export type ChatRecord = z.infer<typeof chatRecordSchema>;
export const chatListSchema = z.array(chatRecordSchema);
