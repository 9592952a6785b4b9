import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import StoreIcon from '@mui/icons-material/Store';
import { createMockServer } from '../../../mocks/node';
import { RESOURCES } from '../../../src/resources';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../../src/domain/audit';
import { POLICY } from '../../../src/domain/policy';
import { auditLogConfig, withWrittenActions } from '../../../src/resources/audit-log/config';
import { AUDIT_LOG_CONFIG, RESOURCE_CONFIGS } from '../../../src/resources/configs';
import { generateResource } from '../../../src/resources/generate/resource';
import { resourceCatalogues } from '../../../src/resources/i18n';
import { column, input, submit, type, wait } from './dom';
import { REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';
import { policyWithSites, sitesConfig } from './sites';

/**
 * docs/adding-a-resource.md, tested: `sitesConfig` is configuration only, and the one line below is all
 * its index.ts holds. Everything else (views, validation, data provider routing, mocks, labels) follows.
 */
const sites = generateResource(sitesConfig, { icon: StoreIcon });

const server = createMockServer(UPSTREAM, REST, { resources: [...RESOURCE_CONFIGS, sitesConfig], canAccess: policyWithSites });
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const open = (path: string, options: Parameters<typeof renderConsole>[1] = {}) =>
  renderConsole(path, { resources: [...RESOURCES, sites], policy: policyWithSites, ...options });

/** The derived writes of a resource of today's that has no shipped names for them. */
const CHANNEL_WRITES = ['notification-channels.create', 'notification-channels.edit', 'notification-channels.delete'];

describe('a resource added by configuration only', () => {
  it('has labels in both languages', () => {
    const { 'zh-CN': zh, 'en-US': en } = resourceCatalogues([sitesConfig]);
    expect(zh.resources.sites).toMatchObject({ name: '站点 |||| 站点', fields: { chambers: '氧舱数量' }, choices: { grade: { A: '甲级' } } });
    expect(en.resources.sites).toMatchObject({ name: 'Site |||| Sites', fields: { chambers: 'Chambers' }, choices: { grade: { A: 'grade A' } } });
  });

  it('has its writes labelled in the audit log, in both languages, from its own name', () => {
    const audit = withWrittenActions(auditLogConfig, [...RESOURCE_CONFIGS, sitesConfig], { ...POLICY, sites: { list: ['admin'], create: ['admin'], edit: ['admin'], delete: ['admin'] } });
    const choices = (source: string) => (audit.fields[source] as { choices: readonly unknown[] }).choices;
    expect(choices('action')).toEqual([...AUDIT_ACTIONS, ...CHANNEL_WRITES, 'sites.create', 'sites.edit', 'sites.delete']);
    expect(choices('targetType')).toEqual([...AUDIT_TARGET_TYPES, 'notification-channels', 'sites']);
    expect(audit.labels['zh-CN'].choices.action).toMatchObject({ 'sites.create': '新建站点', 'sites.edit': '编辑站点', 'sites.delete': '删除站点', 'auth.signIn': '登录' });
    expect(audit.labels['en-US'].choices.action).toMatchObject({ 'sites.create': 'Site created', 'sites.edit': 'Site edited', 'sites.delete': 'Site deleted' });
    expect(audit.labels['zh-CN'].choices.targetType?.sites).toBe('站点');
    expect(audit.labels['en-US'].choices.targetType?.sites).toBe('Site');
    // The resources of today write under their shipped names (a device type's edit is deviceType.update), but
    // for the notification channels, whose writes are derived and named after the resource.
    expect((AUDIT_LOG_CONFIG.fields.action as { choices: readonly unknown[] }).choices).toEqual([...AUDIT_ACTIONS, ...CHANNEL_WRITES]);
  });

  it('gets a menu entry and a list of mock data with filter, sort and paging, in Chinese', async () => {
    await open('/sites');
    expect(await screen.findByText('第 1-10 条，共 55 条', {}, wait)).toBeTruthy();
    expect(document.querySelector('a[href="/sites"]')?.textContent).toBe('站点');
    expect(column('站点名称')[0]).toBe('name-001');

    type('站点名称', 'name-02');
    expect(await screen.findByText('第 1-10 条，共 10 条', {}, wait)).toBeTruthy();
    fireEvent.click(screen.getAllByText('站点名称').find((label) => label.closest('th')) as HTMLElement);
    await waitFor(() => expect(column('站点名称')[0]).toBe('name-029'), wait);

    type('站点名称', '');
    await screen.findByText('第 1-10 条，共 55 条', {}, wait);
    fireEvent.click(screen.getByLabelText('转到下一页'));
    await waitFor(() => expect(column('站点名称')[0]).toBe('name-045'), wait);
  });

  it('labels its list in English', async () => {
    await open('/sites', { locale: 'en-US' });
    expect(await screen.findByText('1-10 of 55', {}, wait)).toBeTruthy();
    for (const label of ['Site name', 'City', 'Chambers', 'Grade', 'Certified']) expect(document.querySelector('thead')?.textContent).toContain(label);
  });

  it('gets an edit form validated by its schema, which saves through REST', async () => {
    await open('/sites/3');
    await waitFor(() => expect(input('站点名称').value).toBe('name-003'), wait);
    type('站点名称', '');
    type('氧舱数量', '501');
    await submit('保存');
    expect(await screen.findByText('必填', {}, wait)).toBeTruthy();
    expect(screen.getByText('不能大于 500')).toBeTruthy();
    type('站点名称', 'Harbour');
    type('氧舱数量', '12');
    await submit('保存');
    expect(await screen.findByText('Harbour', {}, wait)).toBeTruthy();
  });

  it('gets a create form validated by its schema, in English', async () => {
    await open('/sites/create', { locale: 'en-US' });
    await screen.findByLabelText('Site name', {}, wait);
    type('City', 'x'.repeat(41));
    await submit('Save');
    expect(await screen.findByText('At most 40 characters', {}, wait)).toBeTruthy();
    expect(screen.getAllByText('Required')).toHaveLength(2);
    type('City', 'Ningbo');
    type('Site name', 'Harbour');
    type('Chambers', '4');
    await submit('Save');
    expect(await screen.findByText('Ningbo', {}, wait)).toBeTruthy();
  });

  it('deletes where the policy allows, and only there', async () => {
    await open('/sites/5/show');
    fireEvent.click(await screen.findByRole('button', { name: '删除' }, wait));
    fireEvent.click(await screen.findByRole('button', { name: '确认' }, wait));
    await waitFor(() => expect(column('站点名称')).toContain('name-004'), wait);
    expect(column('站点名称')).not.toContain('name-005');
  });

  it('hides delete and edit from a role the policy refuses', async () => {
    await open('/sites/6/show', { account: 'user' });
    await screen.findByText('name-006', {}, wait);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    expect(document.querySelector('a[aria-label="编辑"]')).toBeNull();
  });
});
