import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { seedTables } from '../../../mocks/seed';
import { RESOURCE_CONFIGS } from '../../../src/resources/configs';
import { input, submit, type, wait } from './dom';
import { REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());


describe('generated edit', () => {
  it('edits a device\'s location and shows the saved record', async () => {
    await renderConsole('/devices/Id-003');
    await waitFor(() => expect(input('位置').value).toBe('Location-003'), wait);
    // Only the edit fields are inputs; state and permission change through their own commands.
    expect(screen.queryByLabelText('状态')).toBeNull();
    type('位置', 'Hall 9, bay 2');
    await submit('保存');
    // Saved, the console shows the device's page, whose header names its site.
    expect(await screen.findByText('位置：Hall 9, bay 2', {}, wait)).toBeTruthy();
    expect(document.querySelector('input')).toBeNull();
  });

  it.each([
    ['zh-CN', '保存', '名称', '必填'],
    ['en-US', 'Save', 'Name', 'Required'],
  ] as const)('says what is wrong, from the schema, in %s', async (locale, saveLabel, nameLabel, required) => {
    await renderConsole('/devices/Id-004', { locale });
    await waitFor(() => expect(input(nameLabel).value).toBe('name-004'), wait);
    type(nameLabel, '');
    await submit(saveLabel);
    expect(await screen.findByText(required, {}, wait)).toBeTruthy();
  });
});

describe('generated create', () => {
  it.each([
    ['zh-CN', '保存', '账号', '初始密码', '必填', '至少 12 个字符，不含空格，须包含大写字母、小写字母和数字', '最多 64 个字符'],
    ['en-US', 'Save', 'Account', 'Initial password', 'Required', 'At least 12 characters, no spaces, with upper and lower case letters and digits', 'At most 64 characters'],
  ] as const)('validates a new account with the schema in %s', async (locale, saveLabel, accountLabel, codeLabel, required, password, tooLong) => {
    await renderConsole('/accounts/create', { locale });
    await screen.findByLabelText(accountLabel, {}, wait);
    type(accountLabel, 'x'.repeat(65));
    type(codeLabel, 'weak');
    await submit(saveLabel);
    expect(await screen.findByText(password, {}, wait)).toBeTruthy();
    expect(screen.getByText(tooLong)).toBeTruthy();
    type(accountLabel, '');
    type(codeLabel, '');
    await submit(saveLabel);
    await waitFor(() => expect(screen.getAllByText(required)).toHaveLength(2), wait);
  });

  it('creates an account at the default level and shows it', async () => {
    await renderConsole('/accounts/create');
    await screen.findByLabelText('账号', {}, wait);
    type('账号', 'ops9');
    type('初始密码', 'Chamber2026ox');
    await submit('保存');
    expect(await screen.findByText('ops9', {}, wait)).toBeTruthy();
    expect(await screen.findByText('普通用户', {}, wait)).toBeTruthy();
  });
});

describe('generated show', () => {
  it('shows a state record with units and translated choices, and its device by Id, linked to it', async () => {
    const [record] = seedTables(RESOURCE_CONFIGS).get('state-records') ?? [];
    await renderConsole(`/state-records/${encodeURIComponent(JSON.stringify([record?.Id, record?.Time]))}/show`);
    expect(await screen.findByText('加压速度', {}, wait)).toBeTruthy();
    expect(screen.getByText('舱内压力 (ATA)')).toBeTruthy();
    expect(screen.getByText('剩余时间 (分钟)')).toBeTruthy();
    expect(screen.getByText({ F: '快', M: '中', S: '慢' }[String(record?.SS) as 'F'])).toBeTruthy();
    const device = screen.getByText(String(record?.Id));
    expect(device.closest('a')?.getAttribute('href')).toBe(`/devices/${String(record?.Id)}/show`);
  });
});
