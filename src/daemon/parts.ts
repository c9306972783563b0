/**
 * The seam between the daemon and the broker: the daemon codes against these narrow interfaces,
 * `broker-session.ts` adapts the concrete broker adapter (src/adapters/broker) to them, and tests
 * can drive the daemon through them. The engine needs no seam: the daemon uses src/engine's
 * `Engine` itself, as the backtester does.
 */
import type { Observable } from 'rxjs';
import type { CandleEvent, LifecycleEvent, TickEvent } from '../core/events.js';
import type { Interval } from '../core/candles.js';
import type { Instrument } from '../core/instruments.js';
import type { ExecutionVenue } from '../adapters/execution/venue.js';
import type { StreamStatus } from '../adapters/broker/broker.js';
import type { MasterSource } from '../core/instrument-master.js';
import type { QuoteBand } from './circuit-bands.js';
import type { OptionDataSource } from './option-chains.js';

/** Market data: decoded ticks plus the feed's connection changes, for the instruments asked for. */
export interface MarketFeed {
  readonly events$: Observable<TickEvent | LifecycleEvent>;
  subscribe(instruments: readonly string[]): Promise<void>;
  close(): Promise<void>;
  /**
   * When the read that carried the tick being delivered arrived (performance.now() ms): where
   * tick-to-order latency starts. Feeds without sockets leave it out (the tick's delivery is used).
   */
  readonly arrivedAt?: number;
  /**
   * Called from a tick's handling when it made an order: the rest of a burst of frames waits for a
   * later turn of the event loop, so the order's write (started from promise callbacks) leaves first.
   */
  yieldToWrites?(): void;
}

/** Counters the daemon turns into metrics. */
export interface BrokerStats {
  readonly requests: number;
  readonly rateLimited: number;
  readonly serverErrors: number;
  readonly tokenRenewals: number;
  readonly reconnects: number;
  /** Each WebSocket stream: market-data shards and the order stream (health shows them one by one). */
  readonly streams: readonly StreamHealth[];
  /** Token generation is stopped (a rejected code, a lock): a refused token cannot be replaced. */
  readonly tokenBlocked?: { readonly reason: string; readonly message: string };
}

/** A WebSocket stream's state for health: the broker's own per-stream status. */
export type StreamHealth = StreamStatus;

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
