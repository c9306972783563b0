/**
 * mulberry32: a tiny, fast seeded generator (one uint32 of state), deterministic per seed. Good
 * enough for price noise and fault draws; not for anything that must be unpredictable.
 */

/** The golden-ratio increment that advances a mulberry32 state by one step. */
export const MULBERRY32_STEP = 0x6d2b79f5;

/** 32 random bits from an already advanced mulberry32 state (the generator's output mix). */
export function mulberry32Bits(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/** A generator of uniform numbers in [0, 1): same seed, same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + MULBERRY32_STEP) >>> 0;
    return mulberry32Bits(a) / 4294967296;
  };
}
