import { describe, expect, it } from 'vitest';
import { mulberry32, mulberry32Bits, MULBERRY32_STEP } from '../../src/core/random.js';

describe('mulberry32', () => {
  it('yields the reference mulberry32 sequence for seed 42', () => {
    const next = mulberry32(42);
    expect([next(), next(), next()]).toEqual([0.6011037519201636, 0.44829055899754167, 0.8524657934904099]);
  });

  it('repeats its sequence for the same seed and differs for another', () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const c = mulberry32(8);
    const xs = Array.from({ length: 50 }, () => a());
    expect(Array.from({ length: 50 }, () => b())).toEqual(xs);
    expect(Array.from({ length: 50 }, () => c())).not.toEqual(xs);
    for (const x of xs) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('is the output mix of a state advanced by the step', () => {
    const next = mulberry32(42);
    expect(next()).toBe(mulberry32Bits((42 + MULBERRY32_STEP) >>> 0) / 4294967296);
  });
});
