import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { column, wait } from '../../../tests/unit/resources/dom';
import { REST, UPSTREAM } from '../../../tests/unit/resources/fixtures';
import { renderConsole } from '../../../tests/unit/resources/renderConsole';
import { AUDIT_ACTIONS } from '../../domain/audit';
import { auditLogConfig } from './config';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('the audit log in the console', () => {
  it('labels every action in both languages', () => {
    for (const locale of ['zh-CN', 'en-US'] as const) {
      expect(Object.keys(auditLogConfig.labels[locale].choices.action).sort()).toEqual([...AUDIT_ACTIONS].sort());
    }
  });

  it('lists entries newest first, with labelled columns and actions', async () => {
    await renderConsole('/audit-log', { account: 'admin' });
    expect(await screen.findByText('第 1-10 条，共 55 条', {}, wait)).toBeTruthy();
    const zhActions = Object.values(auditLogConfig.labels['zh-CN'].choices.action);
    const actions = column('操作内容');
    expect(actions).toHaveLength(10);
    expect(actions.every((label) => zhActions.includes(String(label)))).toBe(true);
    expect(column('操作人')[0]).toBe('actor-001');
  });

  it('shows one entry read-only, with the state before and after', async () => {
    await renderConsole('/audit-log/1/show', { locale: 'en-US' });
    expect(await screen.findByText('Before', {}, wait)).toBeTruthy();
    expect(screen.getByText('After')).toBeTruthy();
    expect(screen.getByText('Address')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});
