/**
 * The tab bar's model as pure functions over a list of tabs: which pages are open, and what the closing
 * commands leave open and where the console goes next. The component (TabBar.tsx) only renders and
 * navigates.
 */

/** One opened page (the old console's tab entry). */
export interface TabEntry {
  /** Translation key of the page's title (its menu label). */
  title: string;
  /** The page's path without its query: one tab per page. */
  name: string;
  /** Path and query the tab returns to: the page as it was last seen. */
  fullPath: string;
  query: Record<string, string>;
  /**
   * Whether the page is rebuilt when its tab is entered again. Always true here: the console keeps no
   * page alive behind its tab; the page re-mounts and refetches (react-query shows its copy meanwhile).
   */
  ignoreCache: boolean;
}

export const WORKPLACE_TAB: TabEntry = {
  title: 'app.menu.workplace',
  name: '/dashboard/workplace',
  fullPath: '/dashboard/workplace',
  query: {},
  ignoreCache: true,
};

export const TAB_CLOSINGS = ['close', 'closeOthers', 'closeLeft', 'closeRight', 'closeAll'] as const;
export type TabClosing = (typeof TAB_CLOSINGS)[number];

/** What a closing leaves: the tabs, and the page to go to when the active one was closed. */
export interface TabsAfterClosing {
  tabs: TabEntry[];
  navigateTo?: string;
}

/** The workplace is always open and never closes. */
export const isClosable = (tab: TabEntry): boolean => tab.name !== WORKPLACE_TAB.name;

/** The workplace first, whatever was stored. */
const withWorkplace = (tabs: TabEntry[]): TabEntry[] => [
  tabs.find((tab) => !isClosable(tab)) ?? WORKPLACE_TAB,
  ...tabs.filter(isClosable),
];

/** A page was opened: a new tab at the end, or its tab follows it to the query it now has. */
export const openTab = (tabs: TabEntry[], entry: TabEntry): TabEntry[] => {
  const open = withWorkplace(tabs);
  const index = open.findIndex((tab) => tab.name === entry.name);
  if (index < 0) return [...open, entry];
  if (open[index]?.fullPath === entry.fullPath) return open;
  return open.map((tab, at) => (at === index ? entry : tab));
};

/**
 * Applies a closing to the tab named `target` while the page `active` is shown. Closing the active tab
 * goes to the tab before it (the workplace at worst, as the old console did); the others, left and right
 * go to the target when they close the active one; close all goes to the workplace.
 */
export const closeTabs = (tabs: TabEntry[], closing: TabClosing, target: string, active: string): TabsAfterClosing => {
  const open = withWorkplace(tabs);
  const at = open.findIndex((tab) => tab.name === target);
  if (at < 0) return { tabs: open };
  const keep = (tab: TabEntry, index: number): boolean => {
    if (!isClosable(tab)) return true;
    switch (closing) {
      case 'close':
        return index !== at;
      case 'closeOthers':
        return index === at;
      case 'closeLeft':
        return index >= at;
      case 'closeRight':
        return index <= at;
      case 'closeAll':
        return false;
    }
  };
  const left = open.filter(keep);
  const activeClosed = open.some((tab) => tab.name === active) && !left.some((tab) => tab.name === active);
  if (!activeClosed) return { tabs: left };
  const next = closing === 'closeAll' ? left[0] : closing === 'close' ? left[at - 1] : open[at];
  return { tabs: left, navigateTo: (next ?? WORKPLACE_TAB).fullPath };
};

/** Which closings make sense for a tab: none that would close nothing. */
export const closingsFor = (tabs: TabEntry[], target: string): Record<TabClosing, boolean> => {
  const open = withWorkplace(tabs);
  const at = open.findIndex((tab) => tab.name === target);
  const closableAt = (predicate: (index: number) => boolean) => open.some((tab, index) => isClosable(tab) && predicate(index));
  return {
    close: at >= 0 && isClosable(open[at] ?? WORKPLACE_TAB),
    closeOthers: closableAt((index) => index !== at),
    closeLeft: closableAt((index) => index < at),
    closeRight: at >= 0 && closableAt((index) => index > at),
    closeAll: closableAt(() => true),
  };
};
