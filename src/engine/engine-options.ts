/**
 * How a backtest, the paper daemon or the live daemon builds an engine (`Engine` in engine.ts):
 * the same assembly of bus, candle builder, strategies (safe runners), risk, execution (order state
 * machine, portfolio, emulators) for any `ExecutionVenue`.
 *
 * Driving it:
 *
 *   const engine = await Engine.create({ clock, venue, instruments, store, strategies: [
 *     { id: 'sma-1', definition: smaCross, params: { instrument: 'NSE_2885', fast: 10, slow: 30, qty: 100 } },
 *   ] });
 *   await engine.start();           // loads persisted state, reconciles with venue.orderBook(), onStart
 *   engine.publishTick(tick);       // live/paper: every decoded tick (candles are built from ticks)
 *   engine.publishCandle(candle);   // backtest: historical candles (set `buildCandles: false`)
 *   ...
 *   await engine.stop();            // onStop, persist strategy state, optional cancel/flatten
 *
 * Backtests: use a `VirtualClock`, advance it to each candle's `ts` before publishing it, and give
 * a venue whose `capabilities.synchronous` is true: then the whole path (candle -> strategy -> risk
 * -> venue -> fill -> portfolio -> strategy) runs synchronously inside `publishCandle`, in one
 * deterministic order, with no promise per event.
 */
import type { Clock } from '../core/clock.js';
import type { InstrumentLookup } from '../core/instruments.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../core/store.js';
import type { ExecutionVenue } from '../adapters/execution/venue.js';
import type { Strategy, StrategyDefinition } from '../strategies/strategy.js';
import type { RiskConfigInput } from '../risk/config.js';
import type { ExecutionConfigInput } from '../adapters/execution/config.js';
import type { IntradayExitAt, SquareOffTimes } from '../risk/rules/square-off.js';

/** One strategy instance to run: a registered definition with raw params, or a ready object. */
export type StrategySpec =
  | {
      readonly id: string;
      readonly definition: StrategyDefinition;
      /** Raw parameters (from YAML/CLI); validated by the definition's zod schema. */
      readonly params: unknown;
    }
  | { readonly id: string; readonly strategy: Strategy };

export interface EngineOptions {
  readonly clock: Clock;
  readonly venue: ExecutionVenue;
  readonly instruments: InstrumentLookup;
  /** Persistence of tags, order journal, modification counts, strategy state, kill switch. Default: MemoryStore. */
  readonly store?: Store;
  readonly log?: Logger;
  readonly strategies: readonly StrategySpec[];
  /** Risk limits (validated by src/risk/config.ts; defaults documented there). */
  readonly risk?: RiskConfigInput;
  /** Execution behaviour (reconciliation, emulation, modification budget). */
  readonly execution?: ExecutionConfigInput;
  /** Build candles from ticks for the intervals strategies declare (default true; backtests feeding candles: false). */
  readonly buildCandles?: boolean;
  /**
   * Prefix of our client tags (`remarks`), default `tr`. Tags are `<prefix><run>-<seq>` in base 36,
   * with `run` a counter persisted in the store, so tags stay unique across restarts.
   */
  readonly tagPrefix?: string;
  /**
   * Whether a strategy's order tags end in its key (`_<key>`, tags.ts), so that the broker's book
   * names the strategy of each order when the store's journal is gone (a flushed Redis): the
   * daemon turns it on; default off (backtests keep their tags).
   */
  readonly strategyKeysInTags?: boolean;
  /** Finished orders kept for lookups (default 50,000; older ones are forgotten). */
  readonly retainFinishedOrders?: number;
  /** The broker's intraday square-off per segment (default: config/market-rules/square-off.yaml). */
  readonly squareOffTimes?: SquareOffTimes;
  /**
   * When the engine exits INTRADAY positions itself (intraday-exit.ts), parsed with
   * `IntradayExitAtInput`: 'off', one minute of the day, or per segment. Default: five minutes
   * before each segment's square-off.
   */
  readonly intradayExitAt?: IntradayExitAt;
}
