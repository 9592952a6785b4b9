import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { input, submit, type, wait } from '../resources/dom';
import { REST, UPSTREAM } from '../resources/fixtures';
import { renderConsole } from '../resources/renderConsole';

const server = createMockServer(UPSTREAM, REST);
const created: unknown[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => {
    if (!request.url.endsWith('/add_Admin')) return;
    void request
      .clone()
      .json()
      .then((body: unknown) => created.push(body));
  });
});
afterEach(() => {
  server.resetHandlers();
  created.length = 0;
});
afterAll(() => server.close());

/** The names the Level select offers, once opened. */
const levelChoices = async (label: string) => {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: label }, wait));
  const listbox = await screen.findByRole('listbox', {}, wait);
  return [...listbox.querySelectorAll('li')].map((option) => option.textContent);
};

describe('the account create form', () => {
  it('offers a first-level administrator only Levels 2 and 3, and enforces the password rule with its hint', async () => {
    await renderConsole('/accounts/create', { account: 'user' });
    await screen.findByLabelText('账号', {}, wait);
    expect(screen.getByText('密码规则：至少 12 个字符，不含空格，须同时包含大写字母、小写字母和数字，且不能是常见密码。')).toBeTruthy();
    expect(await levelChoices('账号级别')).toEqual(['二级管理员', '普通用户']);
    fireEvent.click(screen.getByRole('option', { name: '二级管理员' }));

    type('账号', 'ops7');
    for (const weak of ['chamber2026', 'Chamber 2026']) {
      type('初始密码', weak);
      await submit('保存');
      await waitFor(() => expect(input('初始密码').getAttribute('aria-invalid')).toBe('true'), wait);
      // The rule replaces the hint under the field.
      expect(screen.getByText('至少 12 个字符，不含空格，须包含大写字母、小写字母和数字')).toBeTruthy();
      type('初始密码', 'Chamber2026ox');
      await waitFor(() => expect(input('初始密码').getAttribute('aria-invalid')).toBe('false'), wait);
    }
    expect(created).toEqual([]);

    type('初始密码', 'Chamber2026ox');
    await submit('保存');
    expect(await screen.findByText('ops7', {}, wait)).toBeTruthy();
    expect(created).toEqual([{ Account: 'ops7', Code: 'Chamber2026ox', Level: 2 }]);
    expect(await screen.findByText('二级管理员', {}, wait)).toBeTruthy();
  });

  it('offers the super administrator Levels 1 to 3, never its own', async () => {
    await renderConsole('/accounts/create');
    await screen.findByLabelText('账号', {}, wait);
    expect(await levelChoices('账号级别')).toEqual(['一级管理员', '二级管理员', '普通用户']);
  });

  it('shows a 40000 naming a field under that field, in English', async () => {
    await renderConsole('/accounts/create', { locale: 'en-US', account: 'user' });
    await screen.findByLabelText('Account', {}, wait);
    expect(screen.getByText('Password rule: at least 12 characters, no spaces, with upper and lower case letters and digits, and not a common password.')).toBeTruthy();
    type('Account', 'Account-001');
    type('Initial password', 'Chamber2026ox');
    await submit('Save');
    expect(await screen.findByText('Account: account Account-001 already exists', {}, wait)).toBeTruthy();
    await waitFor(() => expect(input('Account').getAttribute('aria-invalid')).toBe('true'), wait);
    expect(created).toEqual([{ Account: 'Account-001', Code: 'Chamber2026ox', Level: 3 }]);
  });
});
