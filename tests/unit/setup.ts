import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';

afterEach(() => {
  cleanup();
  localStorage.clear();
});

// jsdom lays nothing out, so it cannot scroll; the console scrolls to the top on every navigation.
window.scrollTo = () => undefined;
