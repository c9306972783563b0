import { describe, expect, it } from 'vitest';
import { istDateTime } from '../../../src/core/time.js';
import { EquityRecorder, freeze } from '../../../backtest/metrics/equity-curve.js';
import { computeMetrics, drawdown } from '../../../backtest/metrics/performance.js';
import { pairTrades, type FillRecord } from '../../../backtest/metrics/trades.js';

const f = (ts: number, side: 'BUY' | 'SELL', qty: number, price: number, charges = 0): FillRecord => ({ ts, instrument: 'X', side, qty, price, charges, tag: 't', orderId: 'o' });

describe('FIFO round trips', () => {
  it('matches closing quantity against the oldest lots, flips, and splits charges exactly', () => {
    const { trades, open } = pairTrades([
      f(1, 'BUY', 10, 100, 7),
      f(2, 'BUY', 5, 110, 3),
      f(3, 'SELL', 12, 120, 10), // closes 10 @100 and 2 of the 5 @110
      f(4, 'SELL', 8, 90, 4), // closes the last 3 @110, then opens a short of 5 @90
      f(5, 'BUY', 5, 80, 1), // covers the short
    ]);
    expect(trades.map((t) => [t.direction, t.qty, t.entryPrice, t.exitPrice, t.grossPnl])).toEqual([
      ['long', 10, 100, 120, 200],
      ['long', 2, 110, 120, 20],
      ['long', 3, 110, 90, -60],
      ['short', 5, 90, 80, 50],
    ]);
    // Every paisa of charges lands in exactly one trade.
    expect(trades.reduce((a, t) => a + t.charges, 0)).toBe(7 + 3 + 10 + 4 + 1);
    expect(trades[0]!.charges).toBe(7 + Math.round((10 * 10) / 12));
    expect(open).toEqual([]);
  });

  it('leaves unmatched quantity open', () => {
    const { trades, open } = pairTrades([f(1, 'BUY', 10, 100), f(2, 'SELL', 4, 105)]);
    expect(trades).toHaveLength(1);
    expect(open).toEqual([{ instrument: 'X', direction: 'long', qty: 6, entryTs: 1, entryPrice: 100, charges: 0 }]);
  });
});

describe('metrics', () => {
  const day = (d: string): number => istDateTime(d, '15:30');
  const curve = (points: Array<[string, number]>) => {
    const r = new EquityRecorder();
    for (const [d, e] of points) r.record(day(d), e, e !== 1000);
    return freeze(r);
  };

  it('drawdown: depth from the running peak and the longest time under water', () => {
    const c = curve([
      ['2024-01-01', 1000],
      ['2024-01-02', 1100],
      ['2024-01-03', 990], // 10% below 1100
      ['2024-01-04', 1050],
      ['2024-01-05', 1120], // recovered after 3 days
      ['2024-01-06', 1100],
    ]);
    const d = drawdown(c, 1000);
    expect(d.maxDrawdown).toBeCloseTo(0.1, 12);
    expect(d.maxDrawdownAmount).toBe(110);
    expect(d.peakTs).toBe(day('2024-01-02'));
    expect(d.troughTs).toBe(day('2024-01-03'));
    expect(d.maxDurationMs).toBe(3 * 86_400_000);
    expect(d.recovered).toBe(true);
  });

  it('returns, Sharpe and Sortino from daily equity, computed by hand', () => {
    const c = curve([
      ['2024-01-01', 1010],
      ['2024-01-02', 999.9],
      ['2024-01-03', 1019.898],
    ]);
    const m = computeMetrics({ curve: c, startingCash: 1000, trades: [], chargesPaid: 0, fills: 0 });
    // Daily returns +1%, -1%, +2%: mean 0.6667%, sample sd 1.5275%, downside sd sqrt(0.0001/3).
    const rets = [0.01, -0.01, 0.02];
    const mean = rets.reduce((a, x) => a + x, 0) / 3;
    const sd = Math.sqrt(rets.reduce((a, x) => a + (x - mean) ** 2, 0) / 2);
    expect(m.totalReturn).toBeCloseTo(0.019898, 9);
    expect(m.sharpe).toBeCloseTo((mean / sd) * Math.sqrt(252), 9);
    expect(m.sortino).toBeCloseTo((mean / Math.sqrt(0.0001 / 3)) * Math.sqrt(252), 9);
    expect(m.tradingDays).toBe(3);
    expect(m.exposure).toBe(1);
  });
});

describe('equity recorder', () => {
  it('shares the expected sample times while they hold, and keeps its own from the first that does not', () => {
    const expected = Float64Array.from([10, 20, 30, 40]);
    const shared = new EquityRecorder(4, expected);
    for (const t of [10, 20, 30, 40]) shared.record(t, t * 2, t > 20);
    const c = freeze(shared);
    expect(c.ts.buffer).toBe(expected.buffer);
    expect([...c.ts]).toEqual([10, 20, 30, 40]);
    expect([...c.equity]).toEqual([20, 40, 60, 80]);
    expect([...c.exposed]).toEqual([0, 0, 1, 1]);

    // Two candles closing together are one sample: from there the times are the recorder's own.
    const diverging = new EquityRecorder(2, expected);
    for (const t of [10, 30, 40, 50, 60]) diverging.record(t, t, false);
    const d = freeze(diverging);
    expect(d.ts.buffer).not.toBe(expected.buffer);
    expect([...d.ts]).toEqual([10, 30, 40, 50, 60]);
    expect([...d.equity]).toEqual([10, 30, 40, 50, 60]);
    expect([...expected]).toEqual([10, 20, 30, 40]);
  });
});
