/**
 * Seeded randomness shared by the simulator's parts. mulberry32: a tiny, fast seeded generator
 * (one uint32 of state), deterministic per seed. Good enough for price noise and fault draws; not
 * for anything that must be unpredictable. `seedHash`: a seed and a text (an instrument id, a key)
 * to 32 bits, for seeding a stream per thing so that things do not depend on one another.
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

/** A 32-bit avalanche (the murmur3 finaliser). */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** 32-bit hash of a text under a seed: FNV-1a over the UTF-16 code units, then `mix32`. */
export function seedHash(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return mix32(h);
}
