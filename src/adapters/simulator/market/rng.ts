/**
 * Seeded pseudo-random numbers for the market model. Each instrument owns an independent stream
 * (seeded from the model seed and the instrument id), so an instrument's path does not depend on
 * which other instruments exist or how finely time is advanced.
 */

/** FNV-1a 32-bit hash of a string, mixed with a seed. */
export function hashSeed(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return mix32(h);
}

/** A 32-bit avalanche (murmur3 finaliser). */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/**
 * Many mulberry32 streams in one typed array (one uint32 of state per stream): cheap to hold for
 * thousands of instruments and fast to step.
 */
export class RandomStreams {
  private readonly state: Uint32Array;
  private readonly spare: Float64Array;
  private readonly hasSpare: Uint8Array;

  constructor(seeds: readonly number[]) {
    this.state = Uint32Array.from(seeds, (s) => s >>> 0 || 0x9e3779b9);
    this.spare = new Float64Array(seeds.length);
    this.hasSpare = new Uint8Array(seeds.length);
  }

  /** Uniform in [0, 1). */
  uniform(i: number): number {
    const s = (this.state[i]! + 0x6d2b79f5) >>> 0;
    this.state[i] = s;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Standard normal (Box-Muller, the second value kept for the next call). */
  normal(i: number): number {
    if (this.hasSpare[i]) {
      this.hasSpare[i] = 0;
      return this.spare[i]!;
    }
    let u = this.uniform(i);
    if (u < 1e-12) u = 1e-12;
    const v = this.uniform(i);
    const r = Math.sqrt(-2 * Math.log(u));
    const a = 2 * Math.PI * v;
    this.spare[i] = r * Math.sin(a);
    this.hasSpare[i] = 1;
    return r * Math.cos(a);
  }
}
