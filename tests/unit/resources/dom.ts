import { expect } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';

/*
 * Plain DOM reads of react-admin pages: role queries over a whole page take seconds each in jsdom,
 * which turns waitFor's polling into timeouts.
 */

/**
 * How long a react-admin page in jsdom may take to show what is awaited. In the fresh-clone CI on a slower
 * 2-core machine, with the server tests running beside, a list's filter (its debounce, the request, the
 * page drawn again) showed its new count just after 10 s: the count was in the page when the wait failed.
 * The tests' own timeout (45 s) stays above it.
 */
export const wait = { timeout: 20_000 };

export const table = () => document.querySelector('table') as HTMLTableElement;

export const bodyRows = () => [...document.querySelectorAll('table tbody tr')];

/** The text of one column, row by row, found by the start of its header's label. */
export const column = (label: string) => {
  const headers = [...document.querySelectorAll('table thead th')].map((header) => header.textContent);
  const index = headers.findIndex((text) => text?.startsWith(label));
  return bodyRows().map((row) => row.querySelectorAll('td')[index]?.textContent);
};

export const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
export const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });

/** react-admin disables the save button while the form validates; a click then would be lost. */
export const submit = async (name: string) => {
  const button = screen.getByRole('button', { name }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false), wait);
  fireEvent.click(button);
};
