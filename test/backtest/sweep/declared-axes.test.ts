import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveSweepAxes } from '../../../backtest/sweep/declared-axes.js';
import { defineStrategy } from '../../../src/strategies/strategy.js';
import { smaCross } from '../../../src/strategies/sma-cross/index.js';

const undeclared = defineStrategy({ name: 'plain', description: '', params: z.object({ fast: z.number().default(1) }), create: () => ({ instruments: [] }) });

describe('--sweep axes from the declared space', () => {
  it('a bare --sweep takes every declared parameter not fixed by --param', () => {
    expect(resolveSweepAxes([''], smaCross).map((a) => a.name)).toEqual(['fast', 'slow']);
    expect(resolveSweepAxes([''], smaCross, new Set(['fast']))).toEqual([{ name: 'slow', values: [20, 40, 60, 80, 100] }]);
  });

  it('a bare name takes its declared range; name=range is used as given', () => {
    expect(resolveSweepAxes(['fast', 'slow=30,50'], smaCross)).toEqual([
      { name: 'fast', values: [5, 10, 15, 20, 25, 30] },
      { name: 'slow', values: [30, 50] },
    ]);
  });

  it('says what is declared when a name has no range, and how to give one', () => {
    expect(() => resolveSweepAxes(['qty'], smaCross)).toThrow(/--sweep qty: strategy sma-cross declares no range for qty \(declared: fast, slow\); give one, e.g. --sweep qty=1..10:1/);
    expect(() => resolveSweepAxes([''], undeclared)).toThrow(/strategy plain declares no parameter space; give ranges/);
    expect(() => resolveSweepAxes([''], smaCross, new Set(['fast', 'slow']))).toThrow(/every declared parameter of sma-cross \(fast, slow\) is fixed by --param/);
    expect(resolveSweepAxes(['fast=1,2'], undeclared)).toEqual([{ name: 'fast', values: [1, 2] }]);
  });
});
