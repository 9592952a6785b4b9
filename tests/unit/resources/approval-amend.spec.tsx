import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router-dom';
import { createMockServer } from '../../../mocks/node';
import type { SettingRequestRecord } from '../../../src/resources/setting-requests/requests';
import { ProfileBasicPage } from '../../../src/resources/setting-requests/ProfileBasicPage';
import { wait } from './dom';
import { mockSession, REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';

/**
 * The requester's "Amend" on the page of its waiting settings request (docs/approval.md, "In the console"):
 * the console against the msw mocks, which answer the amendment as the server does.
 */

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** A request of `account` on Id-001 asking for ST 30, made through the REST call the device dialog uses. */
const requestAs = async (account: string): Promise<SettingRequestRecord> => {
  const { tokens } = await mockSession(account);
  const response = await fetch(`${REST}/setting-requests`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.get() ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify({ Id: 'Id-001', ST: 30 }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as SettingRequestRecord;
};

const openPage = async (request: SettingRequestRecord, account: string) => {
  await renderConsole(`/profile/basic?id=${request.id}`, { account, routes: <Route path="/profile/basic" element={<ProfileBasicPage />} /> });
  await screen.findByRole('heading', { name: `参数变更申请 ${request.id}` }, wait);
};
const requested = (field: string) => document.querySelector(`[data-setting="${field}"]`)?.querySelectorAll('td')[2]?.textContent;
const hashShown = () => document.querySelector('[data-settings-hash]')?.getAttribute('data-settings-hash');
const amendButton = () => document.querySelector('[data-decision="amend"]');

describe('amending a waiting settings request', () => {
  it('lets the requester change the settings with the request form\'s checks; the page shows them with a new hash', async () => {
    const request = await requestAs('user');
    await openPage(request, 'user');
    await waitFor(() => expect(requested('ST')).toBe('30'), wait);
    expect(hashShown()).toBe(request.settingsHash);

    fireEvent.click(amendButton() as HTMLElement);
    const dialog = await screen.findByRole('dialog', {}, wait);
    const st = dialog.querySelector<HTMLInputElement>('input[name="ST"]') as HTMLInputElement;
    expect(st.value).toBe('30');
    // The settings form's ranges: a time out of range is refused under its input, nothing is sent.
    fireEvent.change(st, { target: { value: '9999' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交修改' }));
    await waitFor(() => expect(dialog.querySelector('.Mui-error')).not.toBeNull(), wait);
    // The same settings again: nothing to amend.
    fireEvent.change(st, { target: { value: '30' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交修改' }));
    await within(dialog).findByText('参数与申请中的相同，没有要修改的内容', {}, wait);

    fireEvent.change(st, { target: { value: '45' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交修改' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), wait);
    await waitFor(() => expect(requested('ST')).toBe('45'), wait);
    expect(hashShown()).toMatch(/^[0-9a-f]{64}$/);
    expect(hashShown()).not.toBe(request.settingsHash);
  });

  it('is not offered to anyone else, nor once the request is no longer waiting', async () => {
    const request = await requestAs('user');
    await openPage(request, 'admin');
    await waitFor(() => expect(document.querySelector('[data-decision="approve"]')).not.toBeNull(), wait);
    expect(amendButton()).toBeNull();

    const { tokens } = await mockSession('user');
    const cancelled = await fetch(`${REST}/setting-requests/${request.id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${tokens.get() ?? ''}` } });
    expect(cancelled.status).toBe(200);
    cleanup();
    await openPage(request, 'user');
    await waitFor(() => expect(document.querySelector('[data-status="cancelled"]')).not.toBeNull(), wait);
    expect(amendButton()).toBeNull();
  });
});
