/**
 * The seam between the engine and wherever orders really go. Every venue implements
 * `ExecutionVenue`: the live broker adapter (`src/adapters/broker/`, REST + WebSocket, also used for
 * paper trading against the simulator) and the backtester's in-process simulated venue
 * (`backtest/`, over `src/adapters/simulator/matching/`).
 *
 * Design points:
 * - **Values or promises.** Every call returns `VenueResult<T> = T | Promise<T>`. An in-process venue
 *   answers with plain values, so a backtest runs intent -> venue -> fill -> portfolio synchronously
 *   and deterministically, with no microtask per order (the 1,000,000 candles/s target). A network
 *   venue returns promises. The engine checks `isPromiseLike` once per call and takes the sync path
 *   when it can; venues must not mix (a venue that answered synchronously once may still return a
 *   promise later; the engine handles both, but deterministic replays need the sync form).
 * - **Fills.** Report executions as `fill` updates when the venue has them. A venue whose stream
 *   only carries cumulative quantities (the live broker's order updates) may send order states
 *   alone: the engine sees reported fills running ahead of fills received and calls
 *   `trades(orderId)` at once to book them (de-duplicated by `fillId`).
 * - **Outcomes, not exceptions, for writes.** A write answers `accepted`, `rejected` (the venue
 *   certainly did nothing) or `unknown` (timed out, connection lost, ack lost: the order may or may
 *   not exist). The engine never retries an `unknown` write: it looks our tag up in the order book
 *   (`remarks`, spec 2.7) and adopts what it finds. A venue that throws is treated as `unknown`.
 * - **Our tag travels in `remarks`.** Every request carries `tag` (the intent id, <= 100 chars, never
 *   a reserved value such as `TV-TERMINAL`); the venue writes it to `remarks` and reports it back on
 *   order-book records, trades and, where it knows it, on updates.
 * - **Updates may be out of order, duplicated or missing.** The engine's order state machine merges
 *   them monotonically (a late OPEN never overwrites FILLED; filled quantity never goes down; fills
 *   are de-duplicated by `fillId`), and fetches `trades()` / `orderBook()` to fill gaps. Venues
 *   should report what they see and not try to clean it up.
 * - **Money is integer paise, quantities are units** (not lots). Instruments are scrip codes
 *   (`NSE_2885`); the venue maps them to exchange/segment/security_id itself.
 * - Updates may be emitted re-entrantly (from inside `place()` for an in-process venue): the engine
 *   queues them on its bus and processes them after the call returns, in emission order.
 */
import type { Observable } from 'rxjs';
import type { OrderStatus, OrderType, Product, Side, Validity } from '../../core/enums.js';
import type { Paise } from '../../core/money.js';
import type { SmartEntryType, SmartLegName, TrailingMode } from '../../core/intents.js';
import type { ConnectionCause } from '../../core/events.js';

/** A venue answer: a plain value from an in-process venue, a promise from a network one. */
export type VenueResult<T> = T | Promise<T>;

export function isPromiseLike<T>(v: VenueResult<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/** A venue answer as a promise (for the paths that wait: lookups, reads, trade fetches). */
export async function venueValue<T>(r: VenueResult<T>): Promise<T> {
  return r;
}

/** What a venue can do natively; the engine emulates what is missing. */
export interface VenueCapabilities {
  /** Smart orders (entry + stop-loss/target OCO legs) are supported (spec 4.7). */
  readonly smartOrders: boolean;
  /**
   * The venue really trails stop-loss legs (`is_tsl`). The live broker accepts and ignores it
   * (spec 3.4, "announced"), so the live adapter says false and the engine trails by modifying.
   */
  readonly trailingStop: boolean;
  /** Modifications the venue accepts per order before refusing (spec 4.6: 25). */
  readonly maxModifications: number;
  /** `margin()` is implemented. */
  readonly marginEstimate: boolean;
  /**
   * Every call answers synchronously (plain values). In-process venues say true; the engine then
   * writes no tag journal before orders (the venue lives and dies with the process, so there is
   * nothing to reconcile after a crash) and reads `funds()` lazily when risk needs the figure.
   */
  readonly synchronous: boolean;
}

/** Who trails a smart order's stop-loss leg, from the venue's capabilities (see `TrailingMode`). */
export function trailingModeOf(c: VenueCapabilities): TrailingMode {
  return c.trailingStop ? 'venue' : 'engine';
}

// ---------------------------------------------------------------------------------------------
// Requests

export interface VenueOrderRequest {
  /** Our client tag, sent as `remarks`. */
  readonly tag: string;
  /** Scrip code, e.g. `NSE_2885`. */
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly orderType: OrderType;
  /** LIMIT price; for STOP_LOSS the limit after trigger (absent: market after trigger). */
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  readonly validity: Validity;
  readonly product: Product;
  readonly isAmo: boolean;
}

export interface VenueModifyRequest {
  readonly tag: string;
  readonly orderId: string;
  readonly instrument: string;
  readonly qty?: number;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  /** Needed by some venues (wire-gaps: modify carries order_type); the order's current type. */
  readonly orderType: OrderType;
}

/** What a modify asks to change (regular order or smart-order part). */
export interface VenueModifyChange {
  readonly qty?: number;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
}

/** The fields a modify request sets, and only those: an absent field stays absent, never `undefined`. */
export function modifyChange(req: VenueModifyChange): VenueModifyChange {
  return {
    ...(req.qty !== undefined ? { qty: req.qty } : {}),
    ...(req.limitPrice !== undefined ? { limitPrice: req.limitPrice } : {}),
    ...(req.triggerPrice !== undefined ? { triggerPrice: req.triggerPrice } : {}),
  };
}

export interface VenueCancelRequest {
  readonly tag: string;
  readonly orderId: string;
  readonly instrument: string;
}

export interface VenueSmartLeg {
  readonly triggerPrice: Paise;
  readonly limitPrice?: Paise;
}

/** Spec 4.7 / wire-gaps "Smart orders": one parent with optional stop-loss and target legs. */
export interface VenueSmartOrderRequest {
  readonly tag: string;
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly entryType: SmartEntryType;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  readonly triggerLimitPrice?: Paise;
  readonly stopLoss?: VenueSmartLeg;
  readonly target?: VenueSmartLeg;
  /** `is_tsl` + `tsl_step_size`; only sent when the venue trails natively. */
  readonly trailingStep?: Paise;
  readonly validity: Validity;
  readonly product: Product;
}

export interface VenueSmartModifyRequest {
  readonly tag: string;
  /** Id of the part being changed: the parent's id for the entry, the leg's own id otherwise. */
  readonly orderId: string;
  readonly instrument: string;
  readonly leg: SmartLegName;
  readonly qty?: number;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
}

export interface VenueSmartCancelRequest {
  readonly tag: string;
  readonly orderId: string;
  readonly instrument: string;
  readonly leg: SmartLegName;
}

// ---------------------------------------------------------------------------------------------
// Write outcomes

export type WriteOutcome =
  /** The venue took it; `orderId` is its id for the order (or the smart order's parent). */
  | { readonly status: 'accepted'; readonly orderId: string; readonly venueStatus?: string; readonly legs?: SmartLegIds }
  /** The venue certainly refused it; nothing exists or changed. `reason` is its message. */
  | { readonly status: 'rejected'; readonly reason: string; readonly errorCode?: string }
  /** No reliable answer (timeout, lost ack, connection reset). Reconcile by tag; never retry blindly. */
  | { readonly status: 'unknown'; readonly reason: string };

/** Ids of a smart order's legs once the venue reveals them (`child_order_details`). */
export interface SmartLegIds {
  readonly stopLoss?: string;
  readonly target?: string;
}

// ---------------------------------------------------------------------------------------------
// Reads and updates

/**
 * One order as the venue reports it: an order-book record (all fields known) or a stream update
 * (often only id, status and cumulative fill; missing fields are absent, never guessed).
 */
export interface VenueOrderState {
  readonly orderId: string;
  /** `remarks`, when the venue reports it (always on the order book, seldom on the stream). */
  readonly tag?: string;
  readonly instrument?: string;
  readonly side?: Side;
  readonly qty?: number;
  readonly orderType?: OrderType;
  readonly product?: Product;
  readonly validity?: Validity;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  /** Normalised by the venue's codec from the broker's spellings. */
  readonly status: OrderStatus;
  /** The broker's own status text, for display and diagnosis. */
  readonly venueStatus?: string;
  /** Cumulative filled quantity. */
  readonly filledQty?: number;
  /** Average fill price, paise (may be fractional for several fills at different prices). */
  readonly avgPrice?: number;
  /** Rejection/cancellation reason (`extra_info`). */
  readonly reason?: string;
  /** For smart-order legs: the parent's id and which leg this is. */
  readonly parentOrderId?: string;
  readonly leg?: SmartLegName;
  /** Modifications the venue has accepted, when it reports them. */
  readonly modifications?: number;
  /** Venue time of this state, epoch ms. */
  readonly ts: number;
}

/** One execution (trade confirmation). `fillId` is unique per venue and is the de-dup key. */
export interface VenueFill {
  readonly fillId: string;
  readonly orderId: string;
  readonly tag?: string;
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly price: Paise;
  readonly product?: Product;
  readonly charges?: Paise;
  readonly ts: number;
}

/** The venue's own view of a position (for reconciliation and display; the engine's portfolio is built from fills). */
export interface VenuePosition {
  readonly instrument: string;
  readonly product: Product;
  readonly netQty: number;
  readonly avgPrice: number;
  readonly realizedPnl?: Paise;
  /** A derivative's expiry date (`YYYY-MM-DD`): a flat position past it was settled by the exchange. */
  readonly expiry?: string;
  readonly ts: number;
}

export interface VenueFunds {
  /** Cash/margin available for new orders now, paise. */
  readonly available: Paise;
  /** Margin already blocked, paise, when known. */
  readonly used?: Paise;
  readonly realizedPnl?: Paise;
  readonly unrealizedPnl?: Paise;
  /** Brokerage and charges accrued for the day (the whole account's), paise, when the venue says. */
  readonly charges?: Paise;
  readonly ts: number;
}

export interface MarginRequest {
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly price: Paise;
  readonly product: Product;
}

export interface MarginEstimate {
  /** Total margin the order needs, paise. */
  readonly required: Paise;
  readonly available?: Paise;
  readonly charges?: Paise;
}

export type VenueUpdate =
  | { readonly kind: 'order'; readonly order: VenueOrderState }
  /**
   * A fill; `order`, when the venue knows it with the fill (an in-process venue), is the order's
   * state after it, merged with the fill (one published state for both) and then not sent again
   * as an `order` update.
   */
  | { readonly kind: 'fill'; readonly fill: VenueFill; readonly order?: VenueOrderState }
  | { readonly kind: 'position'; readonly position: VenuePosition }
  /**
   * Connection state of the update stream. After `connected` following a drop, the engine
   * re-reads the order book and trades (updates missed while down are recovered that way).
   */
  | { readonly kind: 'connection'; readonly connected: boolean; readonly ts: number; readonly detail?: string; readonly cause?: ConnectionCause };

export interface ExecutionVenue {
  /** Short name for logs and events: `broker`, `paper`, `backtest`. */
  readonly name: string;
  readonly capabilities: VenueCapabilities;

  place(req: VenueOrderRequest): VenueResult<WriteOutcome>;
  modify(req: VenueModifyRequest): VenueResult<WriteOutcome>;
  cancel(req: VenueCancelRequest): VenueResult<WriteOutcome>;
  placeSmart(req: VenueSmartOrderRequest): VenueResult<WriteOutcome>;
  modifySmart(req: VenueSmartModifyRequest): VenueResult<WriteOutcome>;
  cancelSmart(req: VenueSmartCancelRequest): VenueResult<WriteOutcome>;

  /** The day's orders (GET /order-book), each with its `tag` from `remarks`. */
  orderBook(): VenueResult<readonly VenueOrderState[]>;
  /** Executions, all of the day's or one order's (GET /trades/{id}, GET /trade-book). */
  trades(orderId?: string): VenueResult<readonly VenueFill[]>;
  positions(): VenueResult<readonly VenuePosition[]>;
  funds(): VenueResult<VenueFunds>;
  /** Margin an order would need (GET /margin); only when `capabilities.marginEstimate`. */
  margin?(req: MarginRequest): VenueResult<MarginEstimate>;

  /**
   * Order states, fills, positions and connection changes, hot (no replay). In-process venues may
   * emit synchronously during a write call.
   */
  readonly updates: Observable<VenueUpdate>;
}
