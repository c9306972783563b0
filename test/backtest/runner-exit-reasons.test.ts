import { describe, expect, it } from 'vitest';
import { istDateTime } from '../../src/core/time.js';
import { backtest } from '../../backtest/backtest.js';
import type { CandleSeries } from '../../backtest/data/candle-series.js';
import { instrumentsForSeries } from '../../backtest/data/series-instruments.js';
import { byExitReason } from '../../backtest/report/report-numbers.js';
import { market, minuteSeries, newScript, scripted, type Script } from './support/scripted.js';

const DAY = '2024-01-02';

const run = (series: CandleSeries[], script: Script, trailing: 'native' | 'emulated' = 'native') =>
  backtest({ definition: scripted(['NSE_1'], script), params: {}, series, instruments: instrumentsForSeries(series), charges: 'none', cash: 1_000_000, trailing });

const smart = (stop: number, target: number, trailingStep?: number) => ({
  kind: 'smart' as const,
  instrument: 'NSE_1',
  side: 'BUY' as const,
  qty: 10,
  entryType: 'MARKET' as const,
  stopLoss: { triggerPrice: stop },
  target: { triggerPrice: target },
  ...(trailingStep !== undefined ? { trailingStep } : {}),
  validity: 'DAY' as const,
  product: 'INTRADAY' as const,
});

const rising = (): CandleSeries[] => [
  minuteSeries('NSE_1', DAY, [
    ['09:15', 100, 100.5, 99.5, 100],
    ['09:16', 100, 101, 99.5, 100.5],
    ['09:17', 100.5, 103.5, 100, 103],
    ['09:18', 103, 103.5, 102, 102.5],
  ]),
];

const falling = (): CandleSeries[] => [
  minuteSeries('NSE_1', DAY, [
    ['09:15', 100, 100, 100, 100],
    ['09:16', 100, 100.4, 99.9, 100.2],
    ['09:17', 100.5, 102.2, 100.4, 102],
    ['09:18', 101.8, 101.9, 98.5, 99],
    ['09:19', 99, 99.5, 98.5, 99],
  ]),
];

describe('why a trade ended, from the fill and its order', () => {
  it('a target leg, a stop-loss leg and a trailed stop are told apart', async () => {
    const target = await run(rising(), newScript({ 'NSE_1@09:15': [smart(9_900, 10_300)] }));
    expect(target.report.trades.map((t) => [t.exitReason, t.entryVia])).toEqual([['target', 'signal']]);

    const stopped = await run(falling(), newScript({ 'NSE_1@09:15': [smart(9_900, 11_000)] }));
    expect(stopped.report.trades.map((t) => t.exitReason)).toEqual(['stop-loss']);

    // Trailed by the venue (is_tsl) or by the engine modifying the leg: both are a trailing stop.
    for (const mode of ['native', 'emulated'] as const) {
      const trailed = await run(falling(), newScript({ 'NSE_1@09:15': [{ ...smart(9_800, 11_000, 50) }] }), mode);
      expect(trailed.report.trades.map((t) => t.exitReason), mode).toEqual(['trailing']);
    }
  });

  it("a strategy's own closing order is a signal, an exit intent a square-off, an open lot ends with the data", async () => {
    const signal = await run(rising(), newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 10)], 'NSE_1@09:16': [market('NSE_1', 'SELL', 10)] }));
    expect(signal.report.trades.map((t) => t.exitReason)).toEqual(['signal']);
    expect(signal.run.fills.every((f) => f.strategyId === 'scripted')).toBe(true);

    const squared = await run(rising(), newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 10)], 'NSE_1@09:16': [{ kind: 'exit', instrument: 'NSE_1' }] }));
    expect(squared.report.trades.map((t) => t.exitReason)).toEqual(['square-off']);

    const open = await run(rising(), newScript({ 'NSE_1@09:15': [market('NSE_1', 'BUY', 10)] }));
    expect(open.report.trades).toEqual([]);
    // Bought at 100.00 (the 09:16 open), marked at the last close 102.50: +25 rupees on 10.
    const rows = byExitReason(open.report.trades, open.report.open, () => 10_250);
    expect(rows).toEqual([{ reason: 'end-of-data', trades: 1, wins: 1, netPnl: 2_500 }]);
    expect(istDateTime(DAY, '09:16')).toBe(open.report.open[0]!.entryTs);
  });
});
