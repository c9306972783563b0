/**
 * The shape of a risk check: a pure function of an intent and a read-only view of the engine's
 * state, answering `OK` (null) or a `Denial`. No check performs I/O or mutates anything; the state
 * it reads is kept current from the bus by the risk engine's owner (portfolio, order state
 * machine, funds snapshots). Returning null for "ok" keeps the hot path allocation-free.
 */
import type { DenialCode, OrderSnapshot } from '../core/events.js';
import type { Intent } from '../core/intents.js';
import type { Instrument } from '../core/instruments.js';
import type { Paise } from '../core/money.js';
import type { MarginModel } from './margin-model.js';
import type { TrailingMode } from '../core/intents.js';
import type { CheckName, RiskConfig, TradingState } from './config.js';
import type { OrderTerms } from './order-terms.js';
import type { SquareOffSegment } from './rules/square-off.js';
import type { IntentPrices } from './intent-prices.js';

export interface Denial {
  readonly code: DenialCode;
  readonly reason: string;
}

export type CheckResult = Denial | null;
export const OK: CheckResult = null;

export interface RiskCheck {
  readonly name: CheckName;
  check(intent: Intent, state: RiskState): CheckResult;
}

export interface CircuitBand {
  readonly lower: Paise;
  readonly upper: Paise;
}

/** Everything a check may read. Implemented by the risk engine over the live components. */
export interface RiskState {
  readonly config: RiskConfig;
  readonly margin: MarginModel;
  /** Who trails stop-loss legs: the venue (`is_tsl` sent) or the engine (leg modifications). */
  readonly trailingMode: TrailingMode;
  /**
   * `execution.autoSlice`: execution splits an F&O order above the freeze quantity into slices (at
   * most the rule's `maxSlices`), so risk lets it through instead of denying it.
   */
  readonly autoSlice: boolean;
  now(): number;
  tradingState(): TradingState;
  /** True once the kill switch has tripped (until an operator resumes). */
  killSwitch(): boolean;
  instrument(id: string): Instrument | undefined;
  lastPrice(id: string): Paise | undefined;
  circuit(id: string): CircuitBand | undefined;
  /**
   * Minute of the IST day from which INTRADAY orders that open or add are denied in a segment (the
   * engine's intraday exit, else the broker's square-off); undefined: no cutoff.
   */
  intradayCutoff(segment: SquareOffSegment): number | undefined;
  /** An order by client tag (following cancel-and-replace to the live order). */
  order(tag: string): OrderSnapshot | undefined;
  /**
   * Why new entries in the instrument are held now (fills being read, a position mismatch), and
   * the broker's position when it is known to differ; undefined when not held.
   */
  entryHold(instrument: string): { readonly reason: string; readonly brokerNet?: number | undefined } | undefined;
  /** Modifications already spent on an order (persisted; survives restarts). */
  modifications(tag: string): number;
  /** Working (non-terminal) orders, account-wide. */
  openOrderCount(): number;
  /** Remaining quantity of working orders on one side of an instrument, account-wide. */
  workingQty(instrument: string, side: 'BUY' | 'SELL'): number;
  /** Net position, account-wide, or of one strategy (fills reported but not booked yet included). */
  netQty(instrument: string, strategyId?: string): number;
  /** Order writes (place/smart/modify) a strategy made within the last `windowMs`. */
  recentWrites(strategyId: string, windowMs: number): number;
  /** Funds available for new orders (venue snapshot minus local reservations); undefined when unknown. */
  availableFunds(): Paise | undefined;
  /** Today's P&L, realized + unrealized, account-wide, paise. */
  dailyPnl(): Paise;
  /** `orderTerms(intent, this)`, computed once per intent however many checks ask. */
  terms(intent: Intent): OrderTerms | undefined;
  /** `intentPrices(intent, this)`, computed once per intent. */
  prices(intent: Intent): IntentPrices | undefined;
}
