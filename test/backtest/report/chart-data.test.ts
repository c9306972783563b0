import { describe, expect, it } from 'vitest';
import { istDateTime } from '../../../src/core/time.js';
import { seriesFromRows, type CandleSeries } from '../../../backtest/data/candle-series.js';
import type { EquityCurve } from '../../../backtest/metrics/equity-curve.js';
import type { FillRecord } from '../../../backtest/metrics/trades.js';
import { benchmarkCurve, chartTime, equityChart, fillRoles, MAX_BARS, priceChart, reduceIndexes } from '../../../backtest/report/chart-data.js';

const MIN = 60_000;

/** `days` sessions of 375 one-minute candles from 2024-01-01 (weekends included: it does not matter here). */
function minutes(instrument: string, days: number, price = (i: number) => 10_000 + (i % 50)): CandleSeries {
  const rows = [];
  for (let d = 0; d < days; d++) {
    const open = istDateTime('2024-01-01', '09:15') + d * 86_400_000;
    for (let k = 0; k < 375; k++) {
      const i = d * 375 + k;
      const p = price(i);
      rows.push({ start: open + k * MIN, ts: open + (k + 1) * MIN, open: p, high: p + 10, low: p - 10, close: p + 5, volume: 100 });
    }
  }
  return seriesFromRows(instrument, '1minute', rows);
}

const curveOf = (ts: number[], equity: number[], exposed: number[] = ts.map(() => 0)): EquityCurve => ({
  length: ts.length,
  ts: Float64Array.from(ts),
  equity: Float64Array.from(equity),
  exposed: Uint8Array.from(exposed),
});

const fill = (ts: number, side: 'BUY' | 'SELL', qty: number, price: number, via?: FillRecord['via']): FillRecord => ({ ts, instrument: 'X', side, qty, price, charges: 0, tag: 't', orderId: 'o', ...(via ? { via } : {}) });

describe('price chart data', () => {
  it('keeps every candle as a bar while under the cap, with chart times read as IST', () => {
    const s = minutes('X', 2);
    const pc = priceChart(s, [], [], 1);
    expect(pc.merged).toBe(1);
    expect(pc.bars).toHaveLength(750);
    // 09:15 IST on 2024-01-01 drawn as 09:15 "UTC" by the chart library.
    expect(new Date(pc.bars[0]![0] * 1000).toISOString()).toBe('2024-01-01T09:15:00.000Z');
    expect(pc.bars[0]!.slice(1)).toEqual([100, 100.1, 99.9, 100.05]);
  });

  it('merges candles of one day past the cap, never across a day, keeping the range', () => {
    const days = Math.ceil((MAX_BARS * 1.5) / 375);
    const s = minutes('X', days, (i) => 10_000 + i);
    const pc = priceChart(s, [], [], 1);
    expect(pc.merged).toBe(2);
    // 375 candles a day in pairs: 188 bars a day (the last one alone).
    expect(pc.bars).toHaveLength(188 * days);
    const [t, o, h, l, c] = pc.bars[187]!;
    expect(new Date(t * 1000).toISOString()).toBe('2024-01-01T15:29:00.000Z');
    expect([o, h, l, c]).toEqual([103.74, 103.84, 103.64, 103.79]);
    const second = pc.bars[1]!;
    expect(second.slice(1)).toEqual([100.02, 100.13, 99.92, 100.08]);
  });

  it('puts each fill on the bar whose span holds it, with what it did', () => {
    const days = Math.ceil((MAX_BARS * 1.5) / 375);
    const s = minutes('X', days);
    const at = (hm: string) => istDateTime('2024-01-02', hm);
    const fills = [fill(at('09:18'), 'BUY', 10, 10_005), fill(at('09:19'), 'SELL', 25, 10_010, 'stop-loss'), fill(at('10:00'), 'BUY', 15, 10_000, 'square-off')];
    const pc = priceChart(s, fills, fillRoles(fills), 1);
    expect(pc.markers.map((m) => [new Date(m[0] * 1000).toISOString().slice(11, 16), m[1], m[2], m[3], m[4]])).toEqual([
      // Bars of two candles from 09:15 (09:15, 09:17, 09:19, ...): 09:18 is in the 09:17 bar.
      ['09:17', 1, 10, 100.05, 'BUY 10 @ ₹100.05 · entry (signal)'],
      ['09:19', 0, 25, 100.1, 'SELL 25 @ ₹100.10 · exit (stop-loss leg) and reverse'],
      ['09:59', 1, 15, 100, 'BUY 15 @ ₹100.00 · exit (square-off)'],
    ]);
  });
});

describe('equity chart data', () => {
  it('keeps a one-sample spike when the curve is reduced to buckets', () => {
    const n = 100_000;
    const v = new Float64Array(n).fill(5);
    v[61_234] = 99;
    v[70_001] = -7;
    const idx = reduceIndexes(n, [v], 2000);
    expect(idx.length).toBeLessThan(n / 10);
    expect(idx).toContain(61_234);
    expect(idx).toContain(70_001);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
  });

  it('draws drawdown from the running peak and the benchmark beside equity', () => {
    const t0 = istDateTime('2024-01-01', '09:16');
    const curve = curveOf([t0, t0 + MIN, t0 + 2 * MIN], [1_000_000, 1_200_000, 900_000]);
    const e = equityChart(curve, 1_000_000, Float64Array.from([1_000_000, NaN, 1_100_000]));
    expect(e.points).toEqual([
      [chartTime(t0), 10_000, 10_000, 0],
      [chartTime(t0 + MIN), 12_000, null, 0],
      [chartTime(t0 + 2 * MIN), 9_000, 11_000, -25],
    ]);
  });

  it('buy and hold splits the cash equally in whole units at the first open, exact to the paisa', () => {
    const a = seriesFromRows('A', '1minute', [
      { start: 0, ts: MIN, open: 30_000, high: 30_000, low: 30_000, close: 31_000, volume: 1 },
      { start: MIN, ts: 2 * MIN, open: 31_000, high: 33_000, low: 31_000, close: 33_000, volume: 1 },
    ]);
    const b = seriesFromRows('B', '1minute', [{ start: MIN, ts: 2 * MIN, open: 70_000, high: 70_000, low: 60_000, close: 60_000, volume: 1 }]);
    // ₹1,000 each: A buys 3 at ₹300 (₹100 left), B buys 1 at ₹700 (₹300 left).
    const bench = benchmarkCurve(curveOf([MIN, 2 * MIN], [0, 0]), [a, b], 200_000);
    // At 1 min B has no candle yet: valued at its first open.
    expect([...bench]).toEqual([40_000 + 3 * 31_000 + 70_000, 40_000 + 3 * 33_000 + 60_000]);
  });
});
