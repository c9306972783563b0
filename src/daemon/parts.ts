/**
 * The seams between the daemon and the parts other areas build. The daemon codes against these
 * narrow interfaces; `broker-session.ts` and `engine-factory.ts` adapt the concrete broker adapter
 * (src/adapters/broker) and engine (src/engine/engine.ts) to them. Tests can drive
 * the daemon through the same seams.
 */
import type { Observable } from 'rxjs';
import type { EventBus } from '../core/bus/event-bus.js';
import type { CandleEvent, LifecycleEvent, TickEvent } from '../core/events.js';
import type { Interval } from '../core/candles.js';
import type { Instrument } from '../core/instruments.js';
import type { ExecutionVenue } from '../adapters/execution/venue.js';
import type { MasterSource } from '../core/instrument-master.js';
import type { CircuitBand } from '../risk/types.js';
import type { RiskConfig } from '../risk/config.js';
import type { Paise } from '../core/money.js';
import type { QuoteBand } from './circuit-bands.js';
import type { OptionDataSource } from './option-chains.js';

/** Market data: decoded ticks plus the feed's connection changes, for the instruments asked for. */
export interface MarketFeed {
  readonly events$: Observable<TickEvent | LifecycleEvent>;
  subscribe(instruments: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** Counters the daemon turns into metrics. */
export interface BrokerStats {
  readonly requests: number;
  readonly rateLimited: number;
  readonly serverErrors: number;
  readonly tokenRenewals: number;
  readonly reconnects: number;
}

/** A logged-in connection to a broker (real or the simulator). */
export interface BrokerSession {
  readonly venue: ExecutionVenue;
  readonly feed: MarketFeed;
  /** Obtains a token (generating one with TOTP when configured). */
  login(): Promise<void>;
  /** The instrument master (equity, F&O, indices); `sources` overrides the session's default sources. */
  instruments(sources?: readonly MasterSource[]): Promise<readonly Instrument[]>;
  /** The master sources `instruments()` loads by default. */
  readonly sources: readonly MasterSource[];
  /** Expiries and current option chains (spec 4.3, 4.5), through the rate-limited client. */
  readonly options: OptionDataSource;
  /** Circuit bands from full quotes (spec 2.4), any number of codes (batched, bad codes left out). */
  circuitBands(codes: readonly string[]): Promise<Readonly<Record<string, QuoteBand>>>;
  stats(): BrokerStats;
  /** Completed historical candles of one instrument in [from, to), oldest first (strategy warm-up). */
  history(instrument: string, interval: Interval, from: number, to: number): Promise<readonly CandleEvent[]>;
  /** Closes sockets and pools; in-flight requests finish first. */
  close(): Promise<void>;
}

/** What the daemon needs from the engine. */
export interface EngineHandle {
  readonly bus: EventBus;
  /** Scrip codes the strategies need ticks for. */
  readonly instruments: readonly string[];
  /** Loads persisted state, reconciles with the venue (order book, trades, positions), starts strategies. */
  start(): Promise<void>;
  publishTick(tick: TickEvent): void;
  /** Trading state: active | reducing | halted. */
  tradingState(): string;
  halt(reason: string): void;
  resume(): void;
  /** Cancels every open order of ours; resolves when they are terminal or the timeout passes. */
  cancelAll(reason: string, timeoutMs: number): Promise<void>;
  /** Cancels every open order and closes every position at market; resolves when done or at the timeout. */
  flatten(reason: string, timeoutMs: number): Promise<void>;
  /** Saves strategy state (periodically, so a crash loses little). */
  checkpoint(): Promise<void>;
  /** Re-writes all state to the store (after the store lost it, e.g. a Redis restart). */
  persist(): Promise<void>;
  /** Stops strategies, persists state; in-flight writes finish. */
  stop(): Promise<void>;
  /** The candle series strategies want history for before trading: (instrument, interval, count). */
  warmupNeeds(): ReadonlyArray<{ readonly instrument: string; readonly interval: Interval; readonly count: number }>;
  /** Feeds historical candles to the strategies only (no orders, no bus). */
  feedWarmup(candles: readonly CandleEvent[]): void;
  /**
   * The daily reconcile: reads the order book again (unless `readBook` is false), prunes journal
   * entries of finished orders the venue no longer lists, forgets finished orders of earlier days.
   */
  reconcileDay(options: { readonly readBook: boolean }): Promise<{ readonly journalPruned: number; readonly journalKept: number; readonly ordersForgotten: number }>;
  /** Client tags of every order the engine knows (today's, adopted ones included). */
  orderTags(): readonly string[];
  /** A JSON summary for `tarang ctl status`. */
  summary(): Record<string, unknown>;
  /** The risk limits the engine enforces, its kill switch, and the funds last read from the venue. */
  riskView(): { readonly config: RiskConfig; readonly killSwitch: boolean; readonly availableFunds: Paise | undefined };
  /** Sets or clears an instrument's circuit band in the risk layer. */
  setCircuit(instrument: string, band: CircuitBand | undefined): void;
}
