import type { AccessCheck } from '../../../mocks/access';
import { canAccess } from '../../../src/domain/policy';
import { defineResource } from '../../../src/resources/types';

/**
 * A resource the console does not have, declared by configuration only, as docs/adding-a-resource.md
 * shows: chamber sites, served by the REST API under /api/v1/chamber-sites. No view code anywhere.
 */
export const sitesConfig = defineResource({
  name: 'sites',
  menu: { group: 'list', order: 40 },
  id: 'id',
  representation: 'name',
  defaultSort: { field: 'name', order: 'ASC' },
  adapter: 'rest',
  path: 'chamber-sites',
  fields: {
    id: { kind: 'number', integer: true, min: 1, max: 1_000_000, views: ['show', 'sort'] },
    name: { kind: 'text', maxLength: 40, required: true, views: ['list', 'filter', 'sort', 'show', 'edit', 'create'] },
    city: { kind: 'text', maxLength: 40, views: ['list', 'filter', 'sort', 'show', 'edit', 'create'] },
    chambers: { kind: 'number', integer: true, min: 0, max: 500, required: true, views: ['list', 'sort', 'show', 'edit', 'create'] },
    grade: { kind: 'enum', choices: ['A', 'B', 'C'], views: ['list', 'filter', 'show', 'edit', 'create'] },
    certified: { kind: 'boolean', defaultValue: false, views: ['list', 'filter', 'show', 'edit', 'create'] },
  },
  labels: {
    'zh-CN': {
      name: '站点 |||| 站点',
      fields: { id: '编号', name: '站点名称', city: '城市', chambers: '氧舱数量', grade: '等级', certified: '已认证' },
      choices: { grade: { A: '甲级', B: '乙级', C: '丙级' } },
    },
    'en-US': {
      name: 'Site |||| Sites',
      fields: { id: 'No.', name: 'Site name', city: 'City', chambers: 'Chambers', grade: 'Grade', certified: 'Certified' },
      choices: { grade: { A: 'grade A', B: 'grade B', C: 'grade C' } },
    },
  },
});

/** Its row of the policy, as adding it to src/domain/policy.ts would give: everyone reads, admins write. */
export const policyWithSites: AccessCheck = (role, request) =>
  request.resource === 'sites'
    ? role !== undefined && (['list', 'show', 'export'].includes(request.action) || role === 'admin')
    : canAccess(role, request);
