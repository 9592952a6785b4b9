/**
 * What bench:alarms runs inside the console's page (installed before the console's own script, as a
 * string so no build step of the benchmark reaches into it): `window.alarmsBench.shown()` answers, for
 * every alarm the app bar's counter has named as the newest, when it was painted (epoch ms).
 *
 * The counter's root element `[data-alarm-counts]` carries the newest standing alarm's id in
 * `data-newest-alarm`. A MutationObserver sees the attribute change (or the counter mounted with it);
 * two animation frames later the frame holding the change has been painted, and `Date.now()` then is
 * when the alarm was shown. Only an id's first appearance counts.
 */

/** Alarm id → epoch ms it was first painted as the newest alarm (0 while its paint is pending). */
export type ShownAlarms = Record<string, number>;

export const ALARMS_PAGE_SCRIPT = `
(() => {
  const shown = {};
  let newest = null;
  const check = () => {
    const counter = document.querySelector('[data-alarm-counts]');
    const id = counter === null ? null : counter.getAttribute('data-newest-alarm');
    if (id === newest) return;
    newest = id;
    if (id === null || id === '' || id in shown) return;
    shown[id] = 0;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      shown[id] = Date.now();
    }));
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-newest-alarm'] });
  window.alarmsBench = { shown: () => shown };
})();
`;
