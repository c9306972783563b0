import { describe, expect, it } from 'vitest';
import { backtest } from '../../backtest/backtest.js';
import { loadCsvCandles } from '../../backtest/data/csv-candles.js';
import { instrumentsForSeries } from '../../backtest/data/series-instruments.js';
import { formatIst } from '../../src/core/time.js';
import { smaCross } from '../../src/strategies/sma-cross/index.js';
import { sharedData } from '../support/shared-data.js';

const data = sharedData();

describe.skipIf(!data.available)('backtest: no INTRADAY position is held overnight (NIFTY 50 minute data, 2024)', () => {
  const { series } = loadCsvCandles(data.path('nse-minute/NIFTY50_2024_1min.csv'));
  const instruments = instrumentsForSeries(series);
  const run = (intradayExitAt?: string) =>
    backtest({
      definition: smaCross,
      params: { instrument: series[0]!.instrument, fast: 10, slow: 30, qty: 100 },
      series,
      instruments,
      charges: 'none',
      cash: 100_000_000,
      ...(intradayExitAt !== undefined ? { intradayExitAt } : {}),
    });

  it('ends every INTRADAY trade on the day it began, by the engine exit before the 15:20 square-off', async () => {
    const { report } = await run();
    expect(report.trades.length).toBeGreaterThan(100);
    for (const t of report.trades) {
      const entry = formatIst(t.entryTs);
      const exit = formatIst(t.exitTs);
      expect(exit.slice(0, 10), `trade entered ${entry}`).toBe(entry.slice(0, 10));
      expect(exit.slice(11, 16) <= '15:20', `trade exited ${exit}`).toBe(true);
    }
    expect(report.open).toEqual([]);
    // The engine's exit (5 minutes before) closes what is open then; the broker squares off only
    // what it missed (a day whose data stops early, an exit that did not fill).
    const exits = report.trades.filter((t) => t.exitReason === 'intraday-exit').length;
    const squared = report.trades.filter((t) => t.exitReason === 'square-off').length;
    expect(exits).toBeGreaterThan(10 * squared);
  });

  it('with the engine exit off, the broker squares off at 15:20 and the trades say so', async () => {
    const { report } = await run('off');
    const squared = report.trades.filter((t) => t.exitReason === 'square-off');
    expect(squared.length).toBeGreaterThan(0);
    for (const t of report.trades) {
      expect(formatIst(t.exitTs).slice(0, 10)).toBe(formatIst(t.entryTs).slice(0, 10));
      expect(formatIst(t.exitTs).slice(11, 16) <= '15:20').toBe(true);
    }
    // At 15:20 (at the last candle on a day whose data stops earlier).
    const at1520 = squared.filter((t) => formatIst(t.exitTs).slice(11, 16) === '15:20');
    expect(at1520.length).toBeGreaterThan(squared.length / 2);
    expect(report.alerts.some((a) => a.code === 'BROKER_SQUARE_OFF')).toBe(true);
    // Orders that would reopen after the square-off are denied with the broker's words.
    expect(report.denials.byCode['INTRADAY_CUTOFF']).toBeGreaterThan(0);
    expect(report.denials.first.find((d) => d.code === 'INTRADAY_CUTOFF')?.reason).toMatch(/not accepted after the intraday square-off time 15:20 IST/);
  });
});
