import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import { useScrollToTop } from './useScrollToTop';

const Page = ({ name }: { name: string }) => {
  useScrollToTop();
  const navigate = useNavigate();
  return (
    <>
      <h1>{name}</h1>
      <Link to="/other">menu link</Link>
      <button onClick={() => navigate('/list?page=2')}>next page</button>
    </>
  );
};

describe('useScrollToTop', () => {
  afterEach(() => vi.restoreAllMocks());

  it('scrolls to the top on every navigation: a link, a programmatic one, a new query', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    render(
      <MemoryRouter initialEntries={['/list']}>
        <Routes>
          <Route path="*" element={<Page name="page" />} />
        </Routes>
      </MemoryRouter>,
    );
    scrollTo.mockClear();
    fireEvent.click(screen.getByText('menu link'));
    expect(scrollTo).toHaveBeenCalledTimes(1);
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    act(() => fireEvent.click(screen.getByText('next page')));
    expect(scrollTo).toHaveBeenCalledTimes(2);
    act(() => fireEvent.click(screen.getByText('next page')));
    // The same place again is no navigation: the reader stays where they are.
    expect(scrollTo).toHaveBeenCalledTimes(2);
  });
});
