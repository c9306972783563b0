import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../src/strategies/strategy.js';
import { parseStrategyParams } from '../../src/strategies/params.js';
import { harness, T0 } from '../adapters/execution/harness.js';
import type { CandleEvent } from '../../src/core/events.js';

const candle = (i: number, close: number): CandleEvent => ({
  type: 'candle', ts: T0 + (i + 1) * 60_000, start: T0 + i * 60_000, instrument: 'NSE_2885', interval: '1minute', open: close, high: close, low: close, close, volume: 100,
});

describe('safe strategy runner', () => {
  it('pauses a strategy that throws, announces it, and keeps the others running', async () => {
    const good: number[] = [];
    const h = await harness({
      strategies: [
        { id: 'bad', strategy: { instruments: ['NSE_2885'], onTick: (t) => { if (t.ltp > 100_00) throw new Error('division by zero'); } } },
        { id: 'good', strategy: { instruments: ['NSE_2885'], onTick: (t) => void good.push(t.ltp) } },
      ],
    });
    h.tick(100_00);
    h.tick(101_00);
    h.tick(102_00);
    expect(good).toEqual([100_00, 101_00, 102_00]);
    const paused = h.of('lifecycle').filter((e) => e.phase === 'strategy_paused');
    expect(paused).toEqual([expect.objectContaining({ source: 'strategy:bad', detail: 'onTick threw: division by zero' })]);
    expect(h.of('alert').map((a) => a.code)).toEqual(['STRATEGY_PAUSED']);
    expect(h.engine.summary()['strategies']).toEqual([
      { id: 'bad', paused: true, reason: 'onTick threw: division by zero', pnl: 0 },
      { id: 'good', paused: false, pnl: 0 },
    ]);
  });

  it('feeds warm-up candles with ctx.warmingUp and denies intents until warm', async () => {
    const flags: boolean[] = [];
    const h = await harness({
      strategies: [{
        id: 'w',
        strategy: {
          instruments: ['NSE_2885'], intervals: ['1minute'], warmup: 3,
          onCandle: (_c, ctx) => {
            flags.push(ctx.warmingUp);
            ctx.buy('NSE_2885', 1, { limitPrice: 100_00 });
          },
        },
      }],
      buildCandles: false,
    });
    for (let i = 0; i < 5; i++) h.engine.publishCandle(candle(i, 100_00));
    expect(flags).toEqual([true, true, true, false, false]);
    expect(h.of('denied').map((d) => d.code)).toEqual(['STRATEGY_NOT_READY', 'STRATEGY_NOT_READY', 'STRATEGY_NOT_READY']);
    expect(h.venue.writesOf('place')).toHaveLength(2);
  });

  it('warm-up can come from history without trading', async () => {
    const flags: boolean[] = [];
    const h = await harness({
      strategies: [{ id: 'w', strategy: { instruments: ['NSE_2885'], intervals: ['1minute'], warmup: 2, onCandle: (_c, ctx) => void flags.push(ctx.warmingUp) } }],
      buildCandles: false,
    });
    h.engine.feedWarmup([candle(0, 1), candle(1, 2), candle(2, 3)]);
    h.engine.publishCandle(candle(3, 4));
    expect(flags).toEqual([true, true, true, false]);
    expect(h.of('candle')).toHaveLength(1);
  });

  it('builds candles from ticks for the intervals a strategy declares', async () => {
    const got: CandleEvent[] = [];
    const h = await harness({ strategies: [{ id: 'c', strategy: { instruments: ['NSE_2885'], intervals: ['1minute'], onCandle: (c) => void got.push(c) } }] });
    h.tick(100_00, 'NSE_2885', 10_000);
    h.tick(101_00, 'NSE_2885', 10_000);
    expect(got).toHaveLength(0);
    h.clock.advanceTo(T0 + 60_000);
    expect(got).toEqual([expect.objectContaining({ start: T0, ts: T0 + 60_000, open: 100_00, close: 101_00 })]);
  });

  it('keeps strategy state across a restart', async () => {
    const h1 = await harness({ strategies: [{ id: 'p', strategy: { instruments: ['NSE_2885'], onTick: (_t, ctx) => void (ctx.state['n'] = ((ctx.state['n'] as number) ?? 0) + 1) } }] });
    h1.tick(1);
    h1.tick(2);
    await h1.engine.stop();
    let seen: unknown;
    await harness({ store: h1.store, strategies: [{ id: 'p', strategy: { instruments: ['NSE_2885'], onStart: (ctx) => void (seen = ctx.state['n']) } }] });
    expect(seen).toBe(2);
  });
});

describe('strategy parameters', () => {
  const def = defineStrategy({
    name: 'demo',
    description: 'demo',
    params: z.object({ qty: z.number().int().positive(), fast: z.number().int().default(5) }).strict(),
    create: () => ({ instruments: [] }),
  });

  it('fills defaults and names a bad parameter in the error', () => {
    expect(parseStrategyParams(def, { qty: 10 })).toEqual({ qty: 10, fast: 5 });
    expect(() => parseStrategyParams(def, { qty: -1 }, 'demo-1')).toThrow(/strategy demo-1 \(demo\): parameter qty: /);
    expect(() => parseStrategyParams(def, { qty: 1, slow: 3 }, 'demo-1')).toThrow(/slow/);
  });

  it('says a left-out parameter without a default is required, not that undefined is the wrong type', () => {
    expect(() => parseStrategyParams(def, {}, 'demo-1')).toThrow('strategy demo-1 (demo): parameter qty: required (no default)');
    expect(() => parseStrategyParams(def, { qty: 'ten' }, 'demo-1')).toThrow(/parameter qty: Invalid input: expected number/);
  });
});
