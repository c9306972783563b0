/**
 * One scripted backtest run, and the hand-made days and smart order the runner tests share
 * (runner.test.ts, runner-exit-reasons.test.ts): a day that rises through a target, a day that
 * rises then falls through a trailed stop, on `NSE_1`, 2 Jan 2024.
 */
import { backtest } from '../../../backtest/backtest.js';
import type { CandleSeries } from '../../../backtest/data/candle-series.js';
import { instrumentsForSeries } from '../../../backtest/data/series-instruments.js';
import { minuteSeries, scripted, type Script } from './scripted.js';

export const DAY = '2024-01-02';

export interface RunOptions {
  readonly charges?: string;
  readonly slippageTicks?: number;
  readonly bothTouched?: 'pessimistic' | 'optimistic' | 'ohlc-path';
  readonly cash?: number;
  readonly participationRate?: number;
  readonly trailing?: 'native' | 'emulated';
}

/** Backtests the scripted strategy over `series` (its instruments and intervals), no charges, 10,000 rupees by default. */
export function runScripted(series: CandleSeries[], script: Script, extra: RunOptions = {}): ReturnType<typeof backtest> {
  return backtest({
    definition: scripted(series.map((s) => s.instrument), script, [...new Set(series.map((s) => s.interval))]),
    params: {},
    series,
    instruments: instrumentsForSeries(series),
    charges: extra.charges ?? 'none',
    cash: extra.cash ?? 1_000_000,
    ...(extra.slippageTicks !== undefined ? { slippageTicks: extra.slippageTicks } : {}),
    ...(extra.bothTouched ? { bothTouched: extra.bothTouched } : {}),
    ...(extra.participationRate !== undefined ? { participationRate: extra.participationRate } : {}),
    ...(extra.trailing ? { trailing: extra.trailing } : {}),
  });
}

/** A MARKET smart buy of 10 NSE_1 (intraday) with a stop-loss and a target (paise), trailed by `trailingStep` if given. */
export const smartBuy = (stop: number, target: number, trailingStep?: number) => ({
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

/** 100.00 to a 103.50 high at 09:17, closing 102.50. */
export const risingDay = (): CandleSeries[] => [
  minuteSeries('NSE_1', DAY, [
    ['09:15', 100, 100.5, 99.5, 100],
    ['09:16', 100, 101, 99.5, 100.5],
    ['09:17', 100.5, 103.5, 100, 103],
    ['09:18', 103, 103.5, 102, 102.5],
  ]),
];

/** Up to a 102.20 high at 09:17, then down through 98.50 at 09:18. */
export const riseThenFallDay = (): CandleSeries[] => [
  minuteSeries('NSE_1', DAY, [
    ['09:15', 100, 100, 100, 100],
    ['09:16', 100, 100.4, 99.9, 100.2],
    ['09:17', 100.5, 102.2, 100.4, 102],
    ['09:18', 101.8, 101.9, 98.5, 99],
    ['09:19', 99, 99.5, 98.5, 99],
  ]),
];
