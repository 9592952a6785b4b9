/**
 * The navigation progress bar's algorithm, nprogress's with the spec's values: a bar that starts at
 * `minimum`, creeps forward by up to `trickleRate` every `trickleSpeed` ms without ever reaching the end,
 * and on completion jumps ahead, fills and fades out, each step animated over `speed` ms. No spinner.
 */
export const PROGRESS = { minimum: 0.08, speed: 200, trickleRate: 0.02, trickleSpeed: 800, showSpinner: false } as const;

/** Where a trickle stops: the bar never looks finished before the work is. */
export const TRICKLE_CEILING = 0.994;

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** A position as the bar shows it: never below the minimum, 1 at most. */
export const placed = (status: number): number => clamp(status, PROGRESS.minimum, 1);

/** The first position of a navigation. */
export const started = (): number => placed(0);

/** One trickle step: forward by a random part of the trickle rate, below the ceiling. `random` is in [0, 1). */
export const trickled = (status: number, random: number): number =>
  placed(clamp(status + random * PROGRESS.trickleRate, 0, TRICKLE_CEILING));

/** The jump before the bar fills: forward by 0.3 to 0.8 of the way, below the ceiling. */
export const finishing = (status: number, random: number): number => placed(clamp(status + 0.3 + 0.5 * random, 0, TRICKLE_CEILING));

/** What the bar shows: its position, and whether it is fading out after completion. */
interface ProgressBar {
  status: number;
  fading: boolean;
}

/**
 * The bar's state over time: it runs while anyone holds it (a navigation, a chunk on its way), trickling
 * every `trickleSpeed` ms, and completes once the last hold is released. `random` is in [0, 1).
 */
export const createProgress = (random: () => number = Math.random) => {
  let bar: ProgressBar | null = null;
  let holds = 0;
  let trickle: ReturnType<typeof setInterval> | undefined;
  let finish: ReturnType<typeof setTimeout>[] = [];
  const listeners = new Set<() => void>();
  const show = (next: ProgressBar | null) => {
    bar = next;
    listeners.forEach((listener) => listener());
  };
  const stopTimers = () => {
    clearInterval(trickle);
    trickle = undefined;
    finish.forEach(clearTimeout);
    finish = [];
  };
  const start = () => {
    stopTimers();
    if (!bar || bar.fading) show({ status: started(), fading: false });
    trickle = setInterval(() => bar && show({ ...bar, status: trickled(bar.status, random()) }), PROGRESS.trickleSpeed);
  };
  const done = () => {
    stopTimers();
    if (!bar) return;
    show({ ...bar, status: finishing(bar.status, random()) });
    finish = [
      setTimeout(() => bar && show({ ...bar, status: 1 }), PROGRESS.speed),
      setTimeout(() => bar && show({ ...bar, fading: true }), 2 * PROGRESS.speed),
      setTimeout(() => show(null), 3 * PROGRESS.speed),
    ];
  };
  return {
    get: () => bar,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    /** Runs the bar until the returned release is called (once; later calls do nothing). */
    hold() {
      holds += 1;
      if (holds === 1) start();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        if (holds === 0) done();
      };
    },
  };
};
