import { describe, expect, it } from 'vitest';
import { closeTabs, closingsFor, openTab, WORKPLACE_TAB, type TabEntry } from './tabModel';

const tab = (name: string, search = ''): TabEntry => ({
  title: `title of ${name}`,
  name,
  fullPath: `${name}${search}`,
  query: Object.fromEntries(new URLSearchParams(search)),
  ignoreCache: true,
});

const A = tab('/a');
const B = tab('/b', '?page=2');
const C = tab('/c');
const D = tab('/d');
const TABS = [WORKPLACE_TAB, A, B, C, D];
const names = (tabs: TabEntry[]) => tabs.map(({ name }) => name);

describe('openTab', () => {
  it('adds a newly opened page at the end, once', () => {
    const tabs = openTab(openTab([WORKPLACE_TAB], A), A);
    expect(names(tabs)).toEqual(['/dashboard/workplace', '/a']);
  });

  it('keeps one tab per page, which follows the page to its new query', () => {
    const tabs = openTab(TABS, tab('/b', '?page=3'));
    expect(names(tabs)).toEqual(names(TABS));
    expect(tabs[2]).toMatchObject({ fullPath: '/b?page=3', query: { page: '3' } });
  });

  it('puts the workplace first even when the stored list lost or moved it', () => {
    expect(names(openTab([A], B))).toEqual(['/dashboard/workplace', '/a', '/b']);
    expect(names(openTab([A, WORKPLACE_TAB], B))).toEqual(['/dashboard/workplace', '/a', '/b']);
  });
});

describe('closeTabs', () => {
  it('close removes one tab and stays when it was not the active one', () => {
    expect(closeTabs(TABS, 'close', '/b', '/d')).toEqual({ tabs: [WORKPLACE_TAB, A, C, D] });
  });

  it('closing the active tab goes to the tab before it, with its query', () => {
    expect(closeTabs(TABS, 'close', '/c', '/c')).toEqual({ tabs: [WORKPLACE_TAB, A, B, D], navigateTo: '/b?page=2' });
    expect(closeTabs(TABS, 'close', '/a', '/a')).toEqual({ tabs: [WORKPLACE_TAB, B, C, D], navigateTo: '/dashboard/workplace' });
  });

  it('close others keeps the workplace and the target, and goes to the target if the active tab closed', () => {
    expect(closeTabs(TABS, 'closeOthers', '/b', '/b')).toEqual({ tabs: [WORKPLACE_TAB, B] });
    expect(closeTabs(TABS, 'closeOthers', '/b', '/d')).toEqual({ tabs: [WORKPLACE_TAB, B], navigateTo: '/b?page=2' });
  });

  it('close left keeps the workplace and everything from the target on', () => {
    expect(closeTabs(TABS, 'closeLeft', '/c', '/d')).toEqual({ tabs: [WORKPLACE_TAB, C, D] });
    expect(closeTabs(TABS, 'closeLeft', '/c', '/a')).toEqual({ tabs: [WORKPLACE_TAB, C, D], navigateTo: '/c' });
  });

  it('close right keeps everything up to the target', () => {
    expect(closeTabs(TABS, 'closeRight', '/b', '/a')).toEqual({ tabs: [WORKPLACE_TAB, A, B] });
    expect(closeTabs(TABS, 'closeRight', '/b', '/d')).toEqual({ tabs: [WORKPLACE_TAB, A, B], navigateTo: '/b?page=2' });
  });

  it('close all keeps only the workplace and goes there', () => {
    expect(closeTabs(TABS, 'closeAll', '/c', '/c')).toEqual({ tabs: [WORKPLACE_TAB], navigateTo: '/dashboard/workplace' });
    expect(closeTabs(TABS, 'closeAll', '/c', '/dashboard/workplace')).toEqual({ tabs: [WORKPLACE_TAB] });
  });

  it('never closes the workplace', () => {
    expect(closeTabs(TABS, 'close', '/dashboard/workplace', '/a')).toEqual({ tabs: TABS });
    expect(closeTabs(TABS, 'closeOthers', '/dashboard/workplace', '/a')).toEqual({
      tabs: [WORKPLACE_TAB],
      navigateTo: '/dashboard/workplace',
    });
  });

  it('stays on a page that has no tab (not found) whatever closes', () => {
    expect(closeTabs(TABS, 'closeAll', '/a', '/nowhere')).toEqual({ tabs: [WORKPLACE_TAB] });
  });

  it('changes nothing for a tab that is not open', () => {
    expect(closeTabs(TABS, 'close', '/x', '/a')).toEqual({ tabs: TABS });
  });
});

describe('closingsFor', () => {
  it('offers only the closings that would close something', () => {
    expect(closingsFor(TABS, '/a')).toEqual({ close: true, closeOthers: true, closeLeft: false, closeRight: true, closeAll: true });
    expect(closingsFor(TABS, '/d')).toEqual({ close: true, closeOthers: true, closeLeft: true, closeRight: false, closeAll: true });
    expect(closingsFor([WORKPLACE_TAB], '/dashboard/workplace')).toEqual({
      close: false,
      closeOthers: false,
      closeLeft: false,
      closeRight: false,
      closeAll: false,
    });
  });
});
