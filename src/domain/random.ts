/** A random number in [0, 1), from a seeded generator. */
export type Random = () => number;

/** mulberry32: small, fast and seeded, so mock records and the demo fleet are the same on every run. */
export const seededRandom = (seed: number): Random => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** A generator seeded from a name (FNV-1a of its characters): the same name gives the same sequence. */
export const seededRandomFor = (name: string): Random =>
  seededRandom([...name].reduce((sum, char) => Math.imul(sum ^ char.charCodeAt(0), 16777619), 2166136261));
