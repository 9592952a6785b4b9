/**
 * What bench:monitor runs inside the page (installed before the console's own script, as a string so no
 * build step of the benchmark reaches into it): `window.monitorBench.start()` begins recording,
 * `.stop()` ends it and answers what was recorded.
 *
 * - Long tasks: every `longtask` entry's duration (the browser reports tasks over 50 ms).
 * - Reading-to-paint latency: a MutationObserver watches the `data-reading-time` attribute the live
 *   screens put on each row or tile (the `Time` of the reading it shows). When it changes on an element,
 *   the new value is in the DOM; two animation frames later that frame has been painted, and
 *   `Date.now()` then minus the reading's `Time` (set by the chamber when it published, same machine
 *   clock) is the latency. Elements mounted with a value (a page loaded, a tile scrolled in) are not
 *   counted: their value came from a fetch, not a live patch.
 */

export interface PageRecording {
  longTasksMs: number[];
  latenciesMs: number[];
  /** Elements that carried a reading time when recording stopped. */
  elements: number;
}

export const PAGE_SCRIPT = `
(() => {
  const state = { recording: false, longTasks: [], latencies: [] };
  new PerformanceObserver((list) => {
    if (!state.recording) return;
    for (const entry of list.getEntries()) state.longTasks.push(entry.duration);
  }).observe({ type: 'longtask' });
  const observer = new MutationObserver((records) => {
    const times = [];
    for (const record of records) {
      const time = Number(record.target.getAttribute('data-reading-time'));
      if (time > 0) times.push(time);
    }
    if (times.length === 0) return;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const painted = Date.now();
      if (state.recording) for (const time of times) state.latencies.push(painted - time);
    }));
  });
  window.monitorBench = {
    start() {
      state.longTasks = [];
      state.latencies = [];
      state.recording = true;
      observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-reading-time'] });
    },
    stop() {
      state.recording = false;
      observer.disconnect();
      return { longTasksMs: state.longTasks, latenciesMs: state.latencies, elements: document.querySelectorAll('[data-reading-time]').length };
    },
  };
})();
`;
