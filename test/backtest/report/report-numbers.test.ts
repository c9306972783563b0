import { describe, expect, it } from 'vitest';
import { istDateTime } from '../../../src/core/time.js';
import { backtest } from '../../../backtest/backtest.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import type { EquityCurve } from '../../../backtest/metrics/equity-curve.js';
import type { FillRecord, TradeRecord } from '../../../backtest/metrics/trades.js';
import { byInstrument, byStrategy, longestFlat, periodReturns, turnover } from '../../../backtest/report/report-numbers.js';
import { market, minuteSeries, newScript, scripted } from '../support/scripted.js';

const at = (date: string, hm = '15:30'): number => istDateTime(date, hm);
const curveOf = (points: Array<[number, number, number?]>): EquityCurve => ({
  length: points.length,
  ts: Float64Array.from(points.map((p) => p[0])),
  equity: Float64Array.from(points.map((p) => p[1])),
  exposed: Uint8Array.from(points.map((p) => p[2] ?? 0)),
});

describe('returns by month and year', () => {
  it('chains each month from the previous month end (the first from the starting cash)', () => {
    const curve = curveOf([
      [at('2024-01-30'), 1_050_000],
      [at('2024-01-31'), 1_100_000],
      [at('2024-02-29', '10:00'), 1_300_000],
      [at('2024-02-29'), 990_000],
      [at('2025-01-02'), 1_089_000],
    ]);
    const { months, years } = periodReturns(curve, 1_000_000);
    expect(months.map((m) => [m.period, Number(m.ret.toFixed(6))])).toEqual([
      ['2024-01', 0.1],
      ['2024-02', -0.1],
      ['2025-01', 0.1],
    ]);
    expect(years.map((y) => [y.period, Number(y.ret.toFixed(6)), y.endEquity])).toEqual([
      ['2024', -0.01, 990_000],
      ['2025', 0.1, 1_089_000],
    ]);
  });
});

describe('flat periods, breakdowns and turnover', () => {
  it('finds the longest stretch without a position, including one running to the end', () => {
    const d = (day: string) => at(day, '10:00');
    expect(longestFlat(curveOf([[d('2024-01-01'), 0, 0], [d('2024-01-03'), 0, 1], [d('2024-01-04'), 0, 0], [d('2024-01-09'), 0, 0]]))).toEqual({ from: d('2024-01-04'), to: d('2024-01-09'), ms: 5 * 86_400_000 });
    expect(longestFlat(curveOf([[d('2024-01-01'), 0, 1]]))).toBeUndefined();
  });

  it('adds up trades, P&L and turnover per instrument and per strategy', () => {
    const tr = (instrument: string, netPnl: number, strategyId?: string): TradeRecord => ({ instrument, direction: 'long', qty: 1, entryTs: 0, entryPrice: 100, exitTs: 1, exitPrice: 100, grossPnl: netPnl + 10, charges: 10, netPnl, exitReason: 'signal', entryVia: 'signal', ...(strategyId ? { strategyId } : {}) });
    const fl = (instrument: string, qty: number, price: number, strategyId?: string): FillRecord => ({ ts: 0, instrument, side: 'BUY', qty, price, charges: 0, tag: 't', orderId: 'o', ...(strategyId ? { strategyId } : {}) });
    const trades = [tr('A', 500, 's1'), tr('A', -200, 's2'), tr('B', 300)];
    const fills = [fl('A', 10, 1_000, 's1'), fl('A', 5, 2_000, 's2'), fl('B', 1, 7, undefined)];
    expect(byInstrument(trades, fills)).toEqual([
      { key: 'A', trades: 2, wins: 1, grossPnl: 320, charges: 20, netPnl: 300, turnover: 20_000, fills: 2 },
      { key: 'B', trades: 1, wins: 1, grossPnl: 310, charges: 10, netPnl: 300, turnover: 7, fills: 1 },
    ]);
    expect(byStrategy(trades, fills, 'main').map((r) => [r.key, r.netPnl, r.turnover])).toEqual([
      ['main', 300, 7],
      ['s1', 500, 10_000],
      ['s2', -200, 10_000],
    ]);
    expect(turnover(fills)).toBe(20_007);
  });
});

describe('charges by component', () => {
  it('itemises what the venue booked, by the preset auto chose for the product', async () => {
    const series = [minuteSeries('NSE_1', '2024-01-02', [['09:15', 1000, 1001, 999, 1000], ['09:16', 1000, 1010, 999, 1005], ['09:17', 1005, 1012, 1004, 1010], ['09:18', 1010, 1011, 1009, 1010]])];
    const out = await backtest({
      definition: scripted(['NSE_1'], newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 100, 'INTRADAY')], 'NSE_1@09:16': [market('NSE_1', 'SELL', 100, 'INTRADAY')] })),
      params: {},
      series,
      instruments: instrumentsForSeries(series),
      charges: 'auto',
      cash: 100_000_000,
    });
    const c = out.report.chargeTotals!;
    expect(c.presets).toEqual({ 'equity-intraday': 2 });
    expect(c.total).toBe(out.metrics.chargesPaid);
    expect(c.brokerage + c.stt + c.exchange + c.sebi + c.stampDuty + c.gst).toBe(c.total);
    // Intraday: STT on the sell side only, stamp duty on the buy side only; both present.
    expect(c.stt).toBeGreaterThan(0);
    expect(c.stampDuty).toBeGreaterThan(0);
    expect(c.gst).toBeGreaterThan(0);
  });
});
