/**
 * Runs an `OptionStrategy` (option-data.ts) under the engine as it is today, which knows nothing of
 * option chains: `withOptionData(strategy, feed)` returns a plain `Strategy` whose hooks hand the
 * inner strategy a context with `options` added, and deliver each chain published on the feed to
 * `onChain` at the start of the next hook call, so a chain is seen inside the safe runner (a throw
 * pauses the strategy like any other hook) and in the engine's event order.
 *
 * Who publishes (this wrapper is the one mechanism in every mode):
 *   - live/paper: the daemon wraps every strategy that declares `optionChains`
 *     (src/daemon/option-strategies.ts) and its chain service (src/daemon/option-chains.ts) fetches
 *     expiries and chains through the broker client and calls `feed.setExpiries(...)` /
 *     `feed.publish(chainFromWire(...))`;
 *   - backtest: pass `candles` (the contracts of one expiry; `tarang backtest --expired-expiry`
 *     does): the wrapper subscribes to their candles and builds a snapshot at each close of the
 *     underlying's candle from the closes seen so far (`chainFromCandles`), so no price from the
 *     future reaches the strategy.
 */
import type { CandleEvent, FillEvent, OrderSnapshot, PositionEvent, TickEvent } from '../../core/events.js';
import type { Paise } from '../../core/money.js';
import type { Strategy, StrategyContext } from '../strategy.js';
import { chainFromCandles, type ExpiredContractRow } from './chain-from-candles.js';
import type { OptionChainSnapshot, OptionDataView, OptionStrategy, OptionStrategyContext } from './option-data.js';

export class OptionDataFeed implements OptionDataView {
  private readonly chains = new Map<string, OptionChainSnapshot>();
  private readonly lists = new Map<string, readonly string[]>();
  private readonly pending: OptionChainSnapshot[] = [];

  setExpiries(underlying: string, expiries: readonly string[]): void {
    this.lists.set(underlying, [...expiries].sort());
  }

  /** A fresh chain: readable at once, delivered to `onChain` at the strategy's next hook. */
  publish(chain: OptionChainSnapshot): void {
    this.chains.set(chain.underlying, chain);
    this.pending.push(chain);
  }

  expiries(underlying: string): readonly string[] | undefined {
    return this.lists.get(underlying);
  }

  chain(underlying: string): OptionChainSnapshot | undefined {
    return this.chains.get(underlying);
  }

  /** Chains published since the last call, oldest first. */
  drain(): OptionChainSnapshot[] {
    return this.pending.splice(0, this.pending.length);
  }
}

/** Backtests: build chains from the candles of one expiry's contracts. */
export interface CandleChains {
  readonly contracts: readonly ExpiredContractRow[];
  /** Instrument id of a contract in the run (default: its trading symbol, as the backtester names expired contracts). */
  readonly instrumentOf?: (tradingSymbol: string) => string;
  /** Strikes each side of the spot in each snapshot (default: the strategy's declared strikeCount). */
  readonly strikeCount?: number;
  /** Known expiries (default: those of `contracts`). */
  readonly expiries?: readonly string[];
  readonly tickSize?: Paise;
}

export function withOptionData(inner: OptionStrategy, feed: OptionDataFeed, candles?: CandleChains): Strategy {
  const need = inner.optionChains[0];
  const instrumentOf = candles?.instrumentOf ?? ((s: string) => s);
  const contractIds = new Map<string, string>();
  for (const c of candles?.contracts ?? []) if (c.option_type !== null) contractIds.set(instrumentOf(c.trading_symbol), c.trading_symbol);
  const closes = new Map<string, Paise>();
  if (candles && need) feed.setExpiries(need.underlying, candles.expiries ?? [...new Set(candles.contracts.map((c) => c.expiry))]);

  const contexts = new WeakMap<StrategyContext, OptionStrategyContext>();
  const withOptions = (ctx: StrategyContext): OptionStrategyContext => {
    let o = contexts.get(ctx);
    if (!o) {
      // A prototype link, not a copy: `warmingUp` and the other live members stay live.
      o = Object.create(ctx, { options: { value: feed, enumerable: true } }) as OptionStrategyContext;
      contexts.set(ctx, o);
    }
    return o;
  };
  const deliver = (octx: OptionStrategyContext): void => {
    for (const chain of feed.drain()) inner.onChain?.(chain, octx);
  };

  const onCandle = (c: CandleEvent, ctx: StrategyContext): void => {
    const octx = withOptions(ctx);
    if (candles && need) {
      const symbol = contractIds.get(c.instrument);
      if (symbol !== undefined) closes.set(symbol, c.close);
      else if (c.instrument === need.underlyingInstrument) {
        feed.publish(
          chainFromCandles({
            ts: c.ts,
            underlying: need.underlying,
            underlyingInstrument: need.underlyingInstrument,
            spot: c.close,
            contracts: candles.contracts,
            instrumentOf,
            lastClose: (s) => closes.get(s),
            strikeCount: candles.strikeCount ?? need.strikeCount,
            ...(candles.tickSize !== undefined ? { tickSize: candles.tickSize } : {}),
          }),
        );
      }
    }
    deliver(octx);
    inner.onCandle?.(c, octx);
  };

  const strategy: Strategy = {
    instruments: [...new Set([...inner.instruments, ...contractIds.keys()])],
    ...(inner.intervals ? { intervals: inner.intervals } : {}),
    ...(inner.warmup !== undefined ? { warmup: inner.warmup } : {}),
    onStart: (ctx) => inner.onStart?.(withOptions(ctx)),
    onCandle,
    onTick: (t: TickEvent, ctx) => {
      const octx = withOptions(ctx);
      deliver(octx);
      inner.onTick?.(t, octx);
    },
    onOrder: (o: OrderSnapshot, ctx) => inner.onOrder?.(o, withOptions(ctx)),
    onFill: (f: FillEvent, ctx) => inner.onFill?.(f, withOptions(ctx)),
    onPosition: (p: PositionEvent, ctx) => inner.onPosition?.(p, withOptions(ctx)),
    onStop: (ctx) => inner.onStop?.(withOptions(ctx)),
  };
  return strategy;
}
