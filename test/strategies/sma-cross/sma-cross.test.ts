import { describe, expect, it } from 'vitest';
import type { CandleEvent } from '../../../src/core/events.js';
import { smaCross } from '../../../src/strategies/sma-cross/index.js';
import { SMA } from '../../../src/strategies/indicators/sma.js';
import { CrossDetector } from '../../../src/strategies/indicators/cross.js';
import { harness, T0 } from '../../adapters/execution/harness.js';

const candle = (i: number, close: number): CandleEvent => ({
  type: 'candle', ts: T0 + (i + 1) * 60_000, start: T0 + i * 60_000, instrument: 'NSE_2885', interval: '1minute', open: close, high: close, low: close, close, volume: 100,
});

describe('SMA', () => {
  it('averages the last n values', () => {
    const s = new SMA(3);
    expect([1, 2, 3, 4, 5].map((v) => s.update(v))).toEqual([undefined, undefined, 2, 3, 4]);
  });
});

describe('CrossDetector (issue 13: the conventional rule)', () => {
  const run = (diffs: number[]) => {
    const x = new CrossDetector();
    return diffs.map((d) => x.update(d, 0) ?? '-');
  };
  it('a cross is a change of sign against the last non-zero sign', () => {
    expect(run([-1, 1, 2, -3])).toEqual(['-', 'above', '-', 'below']);
    expect(run([-1, 0, 0, 1])).toEqual(['-', '-', '-', 'above']);
    expect(run([1, 0, -1])).toEqual(['-', '-', 'below']);
  });
  it('a touch that turns back is no signal', () => {
    expect(run([1, 0, 1, 0, 2])).toEqual(['-', '-', '-', '-', '-']);
    expect(run([-1, 0, -1])).toEqual(['-', '-', '-']);
  });
  it('the first non-zero sign is no signal (nothing to cross from)', () => {
    expect(run([0, 0, 1, -1])).toEqual(['-', '-', '-', 'below']);
  });
});

describe('sma-cross', () => {
  it('buys qty on the cross above while flat and sells the whole position on the cross below (MARKET)', async () => {
    const h = await harness({
      buildCandles: false,
      strategies: [{ id: 'x', definition: smaCross, params: { instrument: 'NSE_2885', interval: '1minute', fast: 2, slow: 3, qty: 5 } }],
      venue: { autoFill: (r) => (r.orderType === 'MARKET' ? h.engine.portfolio.lastPrice('NSE_2885') : undefined) },
    });
    // Closes (rupees): fast(2)/slow(3) by hand:
    //  i: 0   1   2   3   4    5    6    7   8   9
    //  c: 10  10  10  9   12   13   13   10  8   8
    //  fast:   10  10 9.5 10.5 12.5 13  11.5 9   8
    //  slow:       10 9.67 10.33 11.33 12.67 12 10.33 8.67
    //  fast-slow (from i=2): 0, -0.17, +0.17 (cross above at i=4), 1.17, 0.33, -0.5 (cross below at i=7), ...
    const closes = [10, 10, 10, 9, 12, 13, 13, 10, 8, 8].map((r) => r * 100);
    const orders: Array<{ i: number; side: string; qty: number; type: string }> = [];
    closes.forEach((c, i) => {
      const before = h.venue.writesOf('place').length;
      h.clock.advanceTo(T0 + (i + 1) * 60_000);
      h.engine.publishCandle(candle(i, c));
      for (const w of h.venue.writesOf('place').slice(before)) orders.push({ i, side: w.req.side, qty: w.req.qty, type: w.req.orderType });
    });
    expect(orders).toEqual([
      { i: 4, side: 'BUY', qty: 5, type: 'MARKET' },
      { i: 7, side: 'SELL', qty: 5, type: 'MARKET' },
    ]);
    expect(h.engine.portfolio.netQty('NSE_2885')).toBe(0);
    // Bought at 12.00, sold at 10.00: 5 x -2.00.
    expect(h.engine.portfolio.realizedPnl()).toBe(-10_00);
  });

  it('does not trade during warm-up (slow candles) and rejects fast >= slow', async () => {
    expect(() => smaCross.params.parse({ instrument: 'NSE_2885', fast: 30, slow: 10, qty: 1 })).toThrow(/fast must be shorter than slow/);
    const h = await harness({
      buildCandles: false,
      strategies: [{ id: 'x', definition: smaCross, params: { instrument: 'NSE_2885', fast: 1, slow: 3, qty: 1 } }],
    });
    // With fast=1 a cross shows at i=2 (fast 12 vs slow 10.67 after 10,10 -> first ready at i=2, no previous diff).
    [10, 10, 12, 8, 12].forEach((c, i) => h.engine.publishCandle(candle(i, c * 100)));
    // i=3: first live candle (warm-up is 3); diff goes from +1.33 to -2: cross below while flat -> nothing.
    // i=4: cross above while flat -> buy.
    expect(h.venue.writesOf('place').map((w) => w.req.side)).toEqual(['BUY']);
  });
});

describe('sma-cross decides on exact paise averages (issue 13)', () => {
  it('an exact tie is no cross: float running sums of rupees called 159.90 == 159.90 a cross above', async () => {
    const h = await harness({
      buildCandles: false,
      strategies: [{ id: 'x', definition: smaCross, params: { instrument: 'NSE_2885', interval: '1minute', fast: 2, slow: 4, qty: 5 } }],
      venue: { autoFill: (r) => (r.orderType === 'MARKET' ? h.engine.portfolio.lastPrice('NSE_2885') : undefined) },
    });
    // fast(2) - slow(4) in paise: i=7 -12.5, i=8 0 (a tie; floats said +0.0000000000000x), i=9 +2.5, i=10 -2.5.
    const closes = [16010, 16020, 16030, 16020, 16020, 16000, 15980, 15990, 15990, 15990, 15980, 15980];
    const orders: Array<{ i: number; side: string }> = [];
    closes.forEach((c, i) => {
      const before = h.venue.writesOf('place').length;
      h.clock.advanceTo(T0 + (i + 1) * 60_000);
      h.engine.publishCandle(candle(i, c));
      for (const w of h.venue.writesOf('place').slice(before)) orders.push({ i, side: w.req.side });
    });
    expect(orders).toEqual([
      { i: 9, side: 'BUY' },
      { i: 10, side: 'SELL' },
    ]);
  });
});
