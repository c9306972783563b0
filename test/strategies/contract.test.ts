/** Shipped and example strategies through the one contract (test/strategies/contract.ts). */
import { describe, it } from 'vitest';
import { seriesFromRows, type CandleSeries } from '../../backtest/data/candle-series.js';
import { istDateTime } from '../../src/core/time.js';
import { smaCross } from '../../src/strategies/sma-cross/index.js';
import { orbSmart } from '../../src/strategies/orb-smart/index.js';
import type { StrategyDefinition } from '../../src/strategies/strategy.js';
import { definition as rsiRevert } from '../../examples/strategies/rsi-revert.js';
import { definition as trendBasket } from '../../examples/strategies/trend-basket.js';
import { shortStraddle } from '../../src/strategies/short-straddle/index.js';
import { OptionDataFeed, isOptionStrategy, withOptionData } from '../../src/strategies/options/index.js';
import { checkContract } from './contract.js';
import { NIFTY, lastWeekly } from './short-straddle/expired-week.js';

/** Two days of 1-minute candles of a wave with a wobble, in whole paise. */
function wave(instrument: string, phase: number): CandleSeries {
  const rows = ['2024-01-02', '2024-01-03'].flatMap((day, d) =>
    Array.from({ length: 375 }, (_, i) => {
      const start = istDateTime(day, '09:15') + i * 60_000;
      const base = 1000 + 30 * Math.sin((i + 60 * d + phase) / 20) + 4 * Math.sin(i * 1.3);
      const o = Math.round(base * 20) * 5;
      const c = Math.round((base + 1.5 * Math.cos(i)) * 20) * 5;
      return { start, ts: start + 60_000, open: o, high: Math.max(o, c) + 50, low: Math.min(o, c) - 45, close: c, volume: 1000 };
    }),
  );
  return seriesFromRows(instrument, '1minute', rows);
}

const def = (d: unknown): StrategyDefinition => d as StrategyDefinition;

describe('the strategy contract', () => {
  it('sma-cross', async () => {
    await checkContract({ definition: def(smaCross), params: { instrument: 'AAA', qty: 10 }, series: [wave('AAA', 0)], throwAfter: 100 });
  });
  it('orb-smart', async () => {
    await checkContract({ definition: def(orbSmart), params: { instrument: 'AAA', qty: 10 }, series: [wave('AAA', 0)], throwAfter: 100 });
  });
  it('short-straddle, on an expired weekly with its chain built from the contracts\' candles', async () => {
    const week = lastWeekly();
    await checkContract({
      definition: def(shortStraddle),
      // Stops far away, so both legs live to the exit time in every run.
      params: { underlyingInstrument: NIFTY.instrument.id, stopLossPercent: 900 },
      series: week.series,
      instruments: week.instruments,
      cash: 50_000_000_00,
      // Before 09:20, the entry time: the throwing instance never trades.
      throwAfter: 100,
      wrap: (d) => ({
        ...d,
        create: (p, info) => {
          const s = d.create(p, info);
          if (!isOptionStrategy(s)) throw new Error(`${d.name} declares no optionChains`);
          return withOptionData(s, new OptionDataFeed(), { contracts: week.contracts });
        },
      }),
    });
  }, 60_000);
  it('examples/strategies/rsi-revert.ts', async () => {
    await checkContract({ definition: def(rsiRevert), params: { instrument: 'AAA', qty: 10, interval: '1minute' }, series: [wave('AAA', 0)], throwAfter: 100 });
  });
  it('examples/strategies/trend-basket.ts', async () => {
    await checkContract({ definition: def(trendBasket), params: { instruments: ['AAA', 'BBB'], interval: '1minute', budget: 50_000, product: 'INTRADAY' }, series: [wave('AAA', 0), wave('BBB', 30)], throwAfter: 100 });
  });
});
