import { describe, expect, it } from 'vitest';
import { istDateTime } from '../../src/core/time.js';
import type { CandleSeries } from '../../backtest/data/candle-series.js';
import { byExitReason } from '../../backtest/report/report-numbers.js';
import { market, newScript, type Script } from './support/scripted.js';
import { DAY, riseThenFallDay, risingDay, runScripted, smartBuy } from './support/run-scripted.js';

const run = (series: CandleSeries[], script: Script, trailing: 'native' | 'emulated' = 'native') => runScripted(series, script, { trailing });
const smart = smartBuy;
const rising = risingDay;
const falling = riseThenFallDay;

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
