// A small seeded random source (mulberry32): the same seed gives the same bodies, so a failure
// printed with its seed can be run again exactly (SVC_PROPERTY_SEED=<seed>).

export interface Rng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => {
    if (max - min < 2 ** 32) return min + Math.floor(next() * (max - min + 1));
    // Wide ranges (minor units up to 1e11): two draws, so every integer can come out.
    return Math.min(max, min + Math.floor((next() * 2 ** 21 + next()) / 2 ** 21 * (max - min + 1)));
  };
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: (items) => items[int(0, items.length - 1)],
  };
}

/** The run's seed: SVC_PROPERTY_SEED when set (to replay a failure), else a fresh one. */
export function runSeed(): number {
  const fixed = process.env.SVC_PROPERTY_SEED;
  if (fixed !== undefined && fixed !== '') {
    const n = Number(fixed);
    if (!Number.isInteger(n) || n < 0 || n >= 2 ** 32) throw new Error(`SVC_PROPERTY_SEED must be an integer 0..2^32-1, not "${fixed}"`);
    return n;
  }
  return Math.floor(Math.random() * 2 ** 32);
}
