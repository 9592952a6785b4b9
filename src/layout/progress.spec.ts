import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgress, finishing, placed, PROGRESS, started, TRICKLE_CEILING, trickled } from './progress';

describe('the progress algorithm', () => {
  it('uses the spec values: minimum 0.08, speed 200 ms, trickle rate 0.02 every 800 ms, no spinner', () => {
    expect(PROGRESS).toEqual({ minimum: 0.08, speed: 200, trickleRate: 0.02, trickleSpeed: 800, showSpinner: false });
  });

  it('starts at the minimum and keeps every position between it and 1', () => {
    expect(started()).toBe(0.08);
    expect(placed(0.01)).toBe(0.08);
    expect(placed(0.5)).toBe(0.5);
    expect(placed(1.7)).toBe(1);
  });

  it('trickles by at most the trickle rate and never reaches the end on its own', () => {
    expect(trickled(0.08, 0)).toBe(0.08);
    expect(trickled(0.08, 0.5)).toBeCloseTo(0.09, 10);
    expect(trickled(0.08, 0.999)).toBeLessThan(0.1);
    expect(trickled(0.99, 0.999)).toBe(TRICKLE_CEILING);
    let status = started();
    for (let step = 0; step < 10_000; step += 1) status = trickled(status, 0.999);
    expect(status).toBe(0.994);
  });

  it('jumps 0.3 to 0.8 ahead when finishing, below the ceiling', () => {
    expect(finishing(0.1, 0)).toBeCloseTo(0.4, 10);
    expect(finishing(0.1, 0.999)).toBeCloseTo(0.8995, 10);
    expect(finishing(0.5, 0.999)).toBe(TRICKLE_CEILING);
  });
});

describe('the bar over time', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs while held, trickling every 800 ms, then fills, fades over 200 ms steps and goes', () => {
    const progress = createProgress(() => 0.5);
    expect(progress.get()).toBeNull();
    const release = progress.hold();
    expect(progress.get()).toEqual({ status: 0.08, fading: false });
    vi.advanceTimersByTime(799);
    expect(progress.get()?.status).toBe(0.08);
    vi.advanceTimersByTime(1);
    expect(progress.get()?.status).toBeCloseTo(0.09, 10);
    vi.advanceTimersByTime(1600);
    expect(progress.get()?.status).toBeCloseTo(0.11, 10);

    release();
    expect(progress.get()?.status).toBeCloseTo(0.66, 10);
    vi.advanceTimersByTime(200);
    expect(progress.get()).toEqual({ status: 1, fading: false });
    vi.advanceTimersByTime(200);
    expect(progress.get()).toEqual({ status: 1, fading: true });
    vi.advanceTimersByTime(200);
    expect(progress.get()).toBeNull();
  });

  it('completes only when the last hold is released, and a release counts once', () => {
    const progress = createProgress(() => 0);
    const navigation = progress.hold();
    const chunk = progress.hold();
    navigation();
    navigation();
    vi.advanceTimersByTime(1000);
    expect(progress.get()?.fading).toBe(false);
    expect(progress.get()?.status).toBe(0.08);
    chunk();
    vi.advanceTimersByTime(600);
    expect(progress.get()).toBeNull();
  });

  it('tells its subscribers about every change', () => {
    const progress = createProgress(() => 0);
    const seen: (number | undefined)[] = [];
    const unsubscribe = progress.subscribe(() => seen.push(progress.get()?.status));
    progress.hold()();
    vi.advanceTimersByTime(600);
    unsubscribe();
    expect(seen).toEqual([0.08, 0.38, 1, 1, undefined]);
  });
});
