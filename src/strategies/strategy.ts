/**
 * The Strategy API. A strategy is a plain object with synchronous hooks; it sees the market and its
 * own orders through a read-only context and acts only by submitting intents. It never calls a
 * broker, reads wall time or talks to another strategy: the same code therefore runs unchanged in
 * a backtest (virtual clock, simulated venue), in paper trading and live.
 *
 * A strategy module exports a `StrategyDefinition`: a name, a zod schema for its parameters and a
 * `create(params, info)` factory. The engine validates parameters with the schema (a bad value
 * fails with a message naming the parameter), builds the strategy, and drives its hooks through
 * the safe runner (`runner.ts`): a hook that throws pauses that strategy only.
 *
 *   export const definition = defineStrategy({
 *     name: 'my-strategy',
 *     params: z.object({ instrument: z.string(), qty: z.number().int().positive() }),
 *     create: (p) => ({
 *       instruments: [p.instrument],
 *       intervals: ['5minute'],
 *       warmup: 20,
 *       onCandle(c, ctx) { if (...) ctx.buy(p.instrument, p.qty); },
 *     }),
 *   });
 */
import type { z } from 'zod';
import type { Interval } from '../core/candles.js';
import type { Product, Side, Validity } from '../core/enums.js';
import type { CandleEvent, FillEvent, OrderSnapshot, PositionEvent, TickEvent } from '../core/events.js';
import type { CancelIntent, ExitIntent, Intent, ModifyIntent, PlaceIntent, SmartIntent } from '../core/intents.js';
import type { InstrumentLookup } from '../core/instruments.js';
import type { Logger } from '../core/log.js';
import type { Paise } from '../core/money.js';
import type { JsonValue } from '../core/store.js';
import { checkSpace, type ParamSpace } from './space.js';

/** An intent as a strategy writes it: the engine adds `id` (the client tag) and `strategyId`. */
export type IntentDraft =
  | Omit<PlaceIntent, 'id' | 'strategyId'>
  | Omit<ModifyIntent, 'id' | 'strategyId'>
  | Omit<CancelIntent, 'id' | 'strategyId'>
  | Omit<SmartIntent, 'id' | 'strategyId'>
  | Omit<ExitIntent, 'id' | 'strategyId'>;

/** Read-only time. */
export interface ClockView {
  now(): number;
}

/** A position as the portfolio knows it (built from fills, exact paise). */
export interface PositionView {
  readonly instrument: string;
  readonly product: Product;
  /** Signed: positive long, negative short, 0 flat. */
  readonly netQty: number;
  /** Cost of the open quantity, paise; average price = openValue / |netQty|. */
  readonly openValue: Paise;
  readonly realizedPnl: Paise;
  /** At the last known price; 0 when flat, undefined when no price is known. */
  readonly unrealizedPnl: Paise | undefined;
}

export interface PortfolioView {
  /** This strategy's net position in an instrument, summed over products (0 when none). */
  netQty(instrument: string): number;
  /** This strategy's position in an instrument (one product, or all products merged when omitted). */
  position(instrument: string, product?: Product): PositionView | undefined;
  /** Every open position of this strategy. */
  positions(): readonly PositionView[];
  /** Realized + unrealized P&L of this strategy today, paise. */
  pnl(): Paise;
  /** Last known traded price of an instrument (ticks or candle closes), paise. */
  lastPrice(instrument: string): Paise | undefined;
}

export interface OrdersView {
  /**
   * The current state of one of this strategy's orders by its tag (follows cancel-and-replace to
   * the replacement). A finished order of the session (filled, cancelled, rejected, expired) gives
   * its last, terminal snapshot until the IST day ends, even when the engine has dropped it from
   * its working set. Undefined for another strategy's tag, a tag never placed (e.g. an intent
   * risk denied, or one still queued on the bus), or an order finished on an earlier day that has
   * since been forgotten.
   */
  get(tag: string): OrderSnapshot | undefined;
  /** This strategy's working (non-terminal) orders, optionally in one instrument. */
  open(instrument?: string): readonly OrderSnapshot[];
  /**
   * This strategy's orders whose fills the venue reports but the engine is still reading
   * (`settling` set; the position does not show them yet), optionally in one instrument. One the
   * venue has finished is in neither `open` nor done: `onOrder` hears of it once its fills are
   * booked, and new entries in its instrument are denied (INSTRUMENT_HELD) until then.
   */
  settling(instrument?: string): readonly OrderSnapshot[];
}

/** Options for the `buy`/`sell` helpers; MARKET DAY INTRADAY unless said otherwise. */
export interface OrderOptions {
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  readonly validity?: Validity;
  readonly product?: Product;
}

export interface StrategyContext {
  /** This strategy instance's id (from config; unique in an engine). */
  readonly id: string;
  readonly clock: ClockView;
  readonly portfolio: PortfolioView;
  readonly orders: OrdersView;
  readonly instruments: InstrumentLookup;
  readonly log: Logger;
  /**
   * Persistent per-strategy state: plain JSON, saved by the engine at checkpoints and at stop, and
   * given back after a restart. Mutate it freely; do not replace the object.
   */
  readonly state: { [key: string]: JsonValue };
  /** True while warm-up candles are being fed: intents submitted now are denied. */
  readonly warmingUp: boolean;
  /**
   * Hands an intent to the engine (risk, then execution) and returns its id: for place and smart
   * intents that id is the order's client tag. Synchronous; the outcome arrives as `onOrder` or as a
   * `denied` event.
   */
  submit(intent: IntentDraft): string;
  /** Shorthands for `submit`. */
  buy(instrument: string, qty: number, options?: OrderOptions): string;
  sell(instrument: string, qty: number, options?: OrderOptions): string;
  /** Flatten this strategy's position in an instrument at market (cancelling its open orders there). */
  exit(instrument: string, product?: Product): string;
  cancel(tag: string): string;
}

/** A running strategy: what to feed it and its hooks. Every hook is optional and synchronous. */
export interface Strategy {
  /** Scrip codes whose ticks (and candles) the strategy receives. */
  readonly instruments: readonly string[];
  /** Candle intervals built for each instrument (none: ticks only). */
  readonly intervals?: readonly Interval[];
  /**
   * Candles per (instrument, interval) consumed before the strategy may trade. During warm-up
   * `onCandle` runs with `ctx.warmingUp === true` and intents are denied.
   */
  readonly warmup?: number;
  onStart?(ctx: StrategyContext): void;
  onTick?(tick: TickEvent, ctx: StrategyContext): void;
  onCandle?(candle: CandleEvent, ctx: StrategyContext): void;
  /** Every change of one of this strategy's orders. */
  onOrder?(order: OrderSnapshot, ctx: StrategyContext): void;
  /** Each of this strategy's fills (after the portfolio has applied it). */
  onFill?(fill: FillEvent, ctx: StrategyContext): void;
  /** This strategy's position changed. */
  onPosition?(position: PositionEvent, ctx: StrategyContext): void;
  onStop?(ctx: StrategyContext): void;
}

/** What the engine tells a factory about the instance being created. */
export interface StrategyInfo {
  readonly id: string;
  readonly instruments: InstrumentLookup;
}

export interface StrategyDefinition<S extends z.ZodType = z.ZodType> {
  /** Registry name, e.g. `sma-cross`. */
  readonly name: string;
  readonly description: string;
  /** Parameters; defaults belong in the schema. */
  readonly params: S;
  /**
   * The values a sweep or walk-forward tries for each parameter when the command line gives no
   * range (`--sweep fast`, `--sweep` alone, `--walk-forward`); checked against `params` when the
   * strategy is defined (space.ts).
   */
  readonly space?: ParamSpace<z.output<S>>;
  create(params: z.output<S>, info: StrategyInfo): Strategy;
}

/**
 * Keeps the parameter type flowing from the schema into `create` and `space`, and checks the
 * declared space against the schema.
 */
export function defineStrategy<S extends z.ZodType>(def: StrategyDefinition<S>): StrategyDefinition<S> {
  // A bad space fails here, when the strategy's module is imported, naming the parameter.
  if (def.space) checkSpace(def.name, def.params, def.space as Readonly<Record<string, unknown>>);
  return def;
}

/** Sides and intents re-exported so strategy files import one module. */
export type { Side, Intent };
