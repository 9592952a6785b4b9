import { describe, expect, it } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import polyglotI18nProvider from 'ra-i18n-polyglot';
import { CoreAdminContext, memoryStore } from 'react-admin';
import { english } from '../i18n/en-US';
import { FetchingIndicator } from './FetchingIndicator';

const spinning = () => document.querySelector('.MuiCircularProgress-root') !== null;

/** A promise and the function that settles it. */
const held = <T,>(value: T) => {
  let settle: () => void = () => undefined;
  const promise = new Promise<T>((resolve) => (settle = () => resolve(value)));
  return { promise, settle };
};

const renderWith = (client: QueryClient) =>
  render(
    <CoreAdminContext i18nProvider={polyglotI18nProvider(() => english, 'en-US')} store={memoryStore()} queryClient={client}>
      <FetchingIndicator />
    </CoreAdminContext>,
  );

describe('FetchingIndicator', () => {
  it('spins while a query fetches, through other queries\' events, and stops when it ends', async () => {
    const client = new QueryClient();
    renderWith(client);
    expect(spinning()).toBe(false);
    const answer = held('rows');
    let fetched: Promise<string> = Promise.resolve('');
    act(() => void (fetched = client.fetchQuery({ queryKey: ['devices', 'getList'], queryFn: () => answer.promise })));
    await waitFor(() => expect(spinning()).toBe(true));
    // Live patches: many events of queries that are not fetching leave it spinning.
    act(() => {
      for (let i = 0; i < 200; i += 1) client.setQueryData(['devices', 'getOne', { id: `Id-${i}` }], { id: `Id-${i}` });
    });
    await waitFor(() => expect(spinning()).toBe(true));
    await act(async () => {
      answer.settle();
      await fetched;
    });
    await waitFor(() => expect(spinning()).toBe(false));
  });

  it('stops when the fetching query is removed, and spins while a mutation runs', async () => {
    const client = new QueryClient();
    renderWith(client);
    const never = held('never');
    act(() => void client.prefetchQuery({ queryKey: ['orders', 'getList'], queryFn: () => never.promise }));
    await waitFor(() => expect(spinning()).toBe(true));
    act(() => client.removeQueries({ queryKey: ['orders'] }));
    await waitFor(() => expect(spinning()).toBe(false));

    const saved = held('saved');
    let done: Promise<unknown> = Promise.resolve();
    act(() => void (done = client.getMutationCache().build(client, { mutationFn: () => saved.promise }).execute(undefined)));
    await waitFor(() => expect(spinning()).toBe(true));
    await act(async () => {
      saved.settle();
      await done;
    });
    await waitFor(() => expect(spinning()).toBe(false));
  });
});
