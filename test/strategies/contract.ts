/**
 * The contract every strategy passes (shipped and example alike), run through the backtester's
 * engine on a candle series: its default parameters parse (given the required ones), the same
 * input gives the same fills, no intent is sent during warm-up, and a hook that throws pauses that
 * strategy only (another instance trading the same data goes on).
 */
import { expect } from 'vitest';
import { backtest } from '../../backtest/backtest.js';
import type { CandleSeries } from '../../backtest/data/candle-series.js';
import { instrumentsForSeries } from '../../backtest/data/series-instruments.js';
import type { InstrumentLookup } from '../../src/core/instruments.js';
import type { Strategy, StrategyDefinition } from '../../src/strategies/strategy.js';

export interface ContractCase {
  readonly definition: StrategyDefinition;
  /** The required parameters (the rest from the schema's defaults). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly series: readonly CandleSeries[];
  /** Candles after which the throwing instance throws from onCandle. */
  readonly throwAfter: number;
  /** Instruments the series do not describe alone (options: strike, expiry, lot); default from the series. */
  readonly instruments?: InstrumentLookup;
  /**
   * Wraps the definition as its mode runs it (an option strategy: `withOptionData` over the
   * chain's contracts, as `tarang backtest --expired-expiry` does); applied outside the throwing
   * wrapper, so the strategy's own hook throws.
   */
  readonly wrap?: (def: StrategyDefinition) => StrategyDefinition;
  /** Starting cash, paise (default ₹10,00,000; a straddle's margin needs more). */
  readonly cash?: number;
}

const run = (c: ContractCase, definition: StrategyDefinition, instances?: Array<{ id: string; params: Record<string, unknown> }>) =>
  backtest({
    definition: c.wrap ? c.wrap(definition) : definition,
    params: c.params,
    series: c.series,
    instruments: c.instruments ?? instrumentsForSeries(c.series),
    charges: 'none',
    cash: c.cash ?? 100_000_000,
    ...(instances ? { instances } : {}),
  });

const HOOKS = ['onStart', 'onTick', 'onCandle', 'onOrder', 'onFill', 'onPosition', 'onStop'] as const;

/** A definition whose instance `bad` throws from onCandle after `n` candles. */
function throwing(def: StrategyDefinition, n: number): StrategyDefinition {
  return {
    ...def,
    create: (p, info) => {
      const s: Strategy = def.create(p, info);
      if (info.id !== 'bad') return s;
      let seen = 0;
      // The strategy's own fields (instruments, optionChains, ...) and every hook bound to it: a
      // class instance keeps its hooks on the prototype, which a spread alone would drop.
      const out: Record<string, unknown> = { ...s, instruments: s.instruments, intervals: s.intervals, warmup: s.warmup };
      for (const h of HOOKS) if (typeof s[h] === 'function') out[h] = (s[h] as (...a: unknown[]) => void).bind(s);
      out['onCandle'] = (c: Parameters<NonNullable<Strategy['onCandle']>>[0], ctx: Parameters<NonNullable<Strategy['onCandle']>>[1]) => {
        if (++seen > n) throw new Error('boom');
        s.onCandle?.call(s, c, ctx);
      };
      return out as unknown as Strategy;
    },
  };
}

export async function checkContract(c: ContractCase): Promise<void> {
  // 1. Default parameters parse.
  const parsed = c.definition.params.safeParse(c.params);
  expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);

  // 2. Deterministic, and it trades on this data (else the rest would prove nothing).
  const a = await run(c, c.definition);
  const b = await run(c, c.definition);
  expect(a.run.fills.length).toBeGreaterThan(0);
  expect(b.run.fills).toEqual(a.run.fills);
  expect(b.metrics).toEqual(a.metrics);

  // 3. No intent during warm-up: the runner would deny it as STRATEGY_NOT_READY.
  expect(a.run.denials.byCode['STRATEGY_NOT_READY'] ?? 0).toBe(0);

  // 4. A throwing hook pauses that instance only.
  const both = await run(c, throwing(c.definition, c.throwAfter), [
    { id: 'bad', params: { ...c.params } },
    { id: 'good', params: { ...c.params } },
  ]);
  const paused = both.run.alerts.filter((x) => x.code === 'STRATEGY_PAUSED');
  expect(paused.map((x) => x.message)).toEqual([expect.stringMatching(/^strategy bad paused: .*boom/)]);
  const pausedAt = paused[0]!.ts;
  expect(both.run.fills.some((f) => f.ts > pausedAt)).toBe(true);
}
