/**
 * Seeded randomness for the simulator. Every generated quantity is a pure function of the seed and
 * a key naming what it is (`path:NIFTY`, `day:RELIANCE:2026-11-20`), so any piece can be produced
 * alone, in any order, and comes out the same: candles for one day need not replay years of them.
 */
import { seedHash } from '../../../core/random.js';

/** 32-bit hash of the seed and key parts (core/random.ts `seedHash` over the parts joined by U+0001). */
export function hash32(seed: number, ...parts: readonly (string | number)[]): number {
  return seedHash(parts.join('\u0001'), seed);
}

/** A uniform number in [0, 1) fixed by the seed and the key. */
export function hashUnit(seed: number, ...parts: readonly (string | number)[]): number {
  return hash32(seed, ...parts) / 4294967296;
}

/** Small fast PRNG (sfc32) seeded from a hash of the seed and a key. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | undefined;

  constructor(seed: number, ...key: readonly (string | number)[]) {
    this.a = hash32(seed, 'a', ...key);
    this.b = hash32(seed, 'b', ...key);
    this.c = hash32(seed, 'c', ...key);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Standard normal (Marsaglia polar method). */
  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    for (;;) {
      const u = 2 * this.next() - 1;
      const v = 2 * this.next() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) {
        const m = Math.sqrt((-2 * Math.log(s)) / s);
        this.spare = v * m;
        return u * m;
      }
    }
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new RangeError('Rng.pick: empty list');
    return item;
  }
}
