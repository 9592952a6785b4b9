/**
 * How many of the console's lazily loaded chunks are on their way: the progress bar runs while any is,
 * so a page whose code is still downloading never looks like a dead click.
 */
let pending = 0;
const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

export const pendingChunkLoads = () => pending;

export const onChunkLoadsChange = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Counts `load` as pending until it settles; its result or error passes through unchanged. */
export const trackChunkLoad = async <T>(load: Promise<T>): Promise<T> => {
  pending += 1;
  changed();
  try {
    return await load;
  } finally {
    pending -= 1;
    changed();
  }
};
