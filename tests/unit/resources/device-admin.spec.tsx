import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMockServer } from '../../../mocks/node';
import { bodyRows, wait } from './dom';
import { REST, UPSTREAM } from './fixtures';
import { renderConsole } from './renderConsole';

const server = createMockServer(UPSTREAM, REST);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const SECRET = /^[A-Za-z0-9_-]{43}$/;
const firstRow = () => bodyRows()[0] as HTMLElement;
/** The list's total, from its pager (the mocks' devices change from test to test within this file). */
const listTotal = async () => Number(/共 (\d+) 条/.exec((await screen.findByText(/^第 1-10 条，共 \d+ 条$/, {}, wait)).textContent ?? '')?.[1]);

/** The secret dialog: its secret, and the connection example built from it and the broker the answer named. */
const secretShown = async (Id: string) => {
  const dialog = await screen.findByRole('dialog', { name: `设备 ${Id} 的密钥` }, wait);
  const secret = within(dialog).getByTestId('device-secret').textContent ?? '';
  expect(secret).toMatch(SECRET);
  expect(within(dialog).getByTestId('broker-port').textContent).toBe('1883');
  for (const kind of ['telemetry', 'event', 'status', 'ack', 'cmd']) expect(within(dialog).getByText(`oc/${Id}/${kind}`)).toBeTruthy();
  expect(within(dialog).getByTestId('mosquitto-pub').textContent).toMatch(
    new RegExp(`^mosquitto_pub -h \\S+ -p 1883 -u ${Id} -P '${secret}' -q 1 -r -t oc/${Id}/status -m online$`),
  );
  expect(within(dialog).getByText(/仅显示这一次/)).toBeTruthy();
  return { dialog, secret };
};

describe('device administration in the console (generated create, rotation and removal)', () => {
  it('an admin registers a device: the secret shows once with its connection example, then the device opens', async () => {
    await renderConsole('/devices/create');
    fireEvent.change(await screen.findByLabelText('设备编号', {}, wait), { target: { value: 'OC-NEW1' } });
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: 'New One' } });
    fireEvent.change(screen.getByLabelText('位置'), { target: { value: 'Hall N' } });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '类型' }, wait));
    const types = await screen.findAllByRole('option', {}, wait);
    fireEvent.click(types.find((option) => option.textContent?.trim()) as HTMLElement);
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    const { dialog } = await secretShown('OC-NEW1');
    fireEvent.click(within(dialog).getByRole('button', { name: '我已复制' }));
    // The device's page: its header names it.
    expect(await screen.findByRole('heading', { level: 1, name: 'OC-NEW1' }, wait)).toBeTruthy();
    expect(screen.queryByTestId('device-secret')).toBeNull();
  });

  it('refuses a bad Id under its field, in the console\'s language, before anything is sent', async () => {
    await renderConsole('/devices/create');
    fireEvent.change(await screen.findByLabelText('设备编号', {}, wait), { target: { value: 'OC 1' } });
    fireEvent.click(screen.getByRole('button', { name: '保存' }));
    expect(await screen.findAllByText(/格式/, {}, wait)).not.toHaveLength(0);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('rotates a device\'s secret after a confirmation naming it, and shows the new one once', async () => {
    await renderConsole('/devices');
    await listTotal();
    const Id = within(firstRow()).getAllByRole('cell')[0]?.textContent ?? '';
    fireEvent.click(await within(firstRow()).findByRole('button', { name: '重新生成密钥' }, wait));
    const confirm = await screen.findByRole('dialog', { name: new RegExp(`^重新生成设备 ${Id}（.+）的密钥？$`) }, wait);
    fireEvent.click(within(confirm).getByRole('button', { name: '确认' }));
    await secretShown(Id);
  });

  it('removes a device after a confirmation naming it and saying what is kept', async () => {
    await renderConsole('/devices');
    const before = await listTotal();
    const Id = within(firstRow()).getAllByRole('cell')[0]?.textContent ?? '';
    fireEvent.click(await within(firstRow()).findByRole('button', { name: /删除/ }, wait));
    const confirm = await screen.findByRole('dialog', { name: new RegExp(`^删除设备 ${Id}（.+）$`) }, wait);
    expect(within(confirm).getByText(/已有的订单和状态记录保留/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: '确认' }));
    await screen.findByText(`第 1-10 条，共 ${before - 1} 条`, {}, wait);
    // The rows follow the new page a moment after the total (they render as a deferred value).
    await waitFor(() => expect(screen.queryByText(Id)).toBeNull(), wait);
  });

  it.each(['user', 'client'])('offers %s no registration, rotation or removal', async (account) => {
    await renderConsole('/devices', { account });
    // A client's list holds only its own chambers, a page or less: wait for its rows, not a full page.
    await waitFor(() => expect(bodyRows().length).toBeGreaterThan(0), wait);
    await screen.findByRole('button', { name: '导出' }, wait);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('link', { name: '新建' })).toBeNull();
    expect(within(firstRow()).queryByRole('button', { name: '重新生成密钥' })).toBeNull();
    expect(within(firstRow()).queryByRole('button', { name: /删除/ })).toBeNull();
  });
});
