import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/core/errors.js';
import { checkSpace, spaceValues, StrategySpaceError } from '../../src/strategies/space.js';
import { defineStrategy } from '../../src/strategies/strategy.js';
import { smaCross } from '../../src/strategies/sma-cross/index.js';
import { orbSmart } from '../../src/strategies/orb-smart/orb-smart.js';

const params = z.object({ fast: z.number().int().positive(), mode: z.enum(['a', 'b']).default('a'), ratio: z.number().max(1).default(0.5) }).strict();
const define = (space: Record<string, unknown>) => () => defineStrategy({ name: 'spacey', description: '', params, space: space as never, create: () => ({ instruments: [] }) });

describe('declared parameter space', () => {
  it('expands inclusive ranges on an exact grid and keeps lists in order', () => {
    expect(spaceValues('fast', { from: 5, to: 30, step: 5 })).toEqual([5, 10, 15, 20, 25, 30]);
    expect(spaceValues('x', { from: 0.1, to: 0.5, step: 0.1 })).toEqual([0.1, 0.2, 0.3, 0.4, 0.5]);
    expect(spaceValues('x', { from: 1, to: 3 })).toEqual([1, 2, 3]);
    expect(spaceValues('x', { from: 1, to: 6, step: 2 })).toEqual([1, 3, 5]);
    expect(spaceValues('mode', ['b', 'a'])).toEqual(['b', 'a']);
  });

  it('fails at definition time naming the strategy and the parameter: unknown name, value the schema refuses, bad range', () => {
    expect(define({ fsat: { from: 1, to: 2 } })).toThrow(/strategy spacey: space.fsat: not a parameter \(parameters: fast, mode, ratio\)/);
    expect(define({ fast: { from: 0, to: 10, step: 5 } })).toThrow(/space.fast: 0 is not a valid fast/);
    expect(define({ mode: ['a', 'c'] })).toThrow(/space.mode: "c" is not a valid mode/);
    expect(define({ ratio: { from: 0.5, to: 1.5, step: 0.5 } })).toThrow(/space.ratio: 1.5 is not a valid ratio/);
    expect(define({ fast: { from: 10, to: 5 } })).toThrow(/space.fast: to \(5\) is below from \(10\)/);
    expect(define({ fast: { from: 1, to: 5, step: 0 } })).toThrow(/step must be positive/);
    expect(define({ mode: [] })).toThrow(/list of values is empty/);
    expect(define({ fast: { from: 1, to: 10 } })).not.toThrow();
    try {
      define({ fsat: { from: 1, to: 2 } })();
    } catch (e) {
      expect(e).toBeInstanceOf(StrategySpaceError);
      expect(e).toBeInstanceOf(ConfigError);
    }
  });

  it('sma-cross and orb-smart declare spaces their schemas accept', () => {
    expect(checkSpace(smaCross.name, smaCross.params, smaCross.space!)).toEqual([
      { name: 'fast', values: [5, 10, 15, 20, 25, 30] },
      { name: 'slow', values: [20, 40, 60, 80, 100] },
    ]);
    expect(checkSpace(orbSmart.name, orbSmart.params, orbSmart.space!)).toEqual([
      { name: 'rangeMinutes', values: [15, 30, 45, 60] },
      { name: 'targetValue', values: [1, 1.5, 2, 2.5, 3] },
    ]);
  });
});
