/**
 * The Event union: everything that happens in tarang travels on the bus as one of these.
 * Events are immutable (readonly, never mutated after publish), carry `ts` (event time, epoch ms,
 * from the Clock or the venue) and are discriminated on `type`. Prices are integer paise.
 */
import type { OrderStatus, OrderType, Product, Side, TradingState, Validity } from './enums.js';
import type { Intent } from './intents.js';
import type { Paise } from './money.js';
import type { Interval } from './candles.js';

export const EventType = {
  TICK: 'tick',
  CANDLE: 'candle',
  ORDER: 'order',
  FILL: 'fill',
  POSITION: 'position',
  INTENT: 'intent',
  DENIED: 'denied',
  LIFECYCLE: 'lifecycle',
  TRADING_STATE: 'trading-state',
  ALERT: 'alert',
  SQUARE_OFF: 'square-off',
  LOST_ANSWER: 'lost-answer',
} as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

/** A market data update for one instrument (ltp mode fills only `ltp`). */
export interface TickEvent {
  readonly type: 'tick';
  readonly ts: number;
  /** Scrip code, e.g. `NSE_2885` (see instruments.ts). */
  readonly instrument: string;
  readonly ltp: Paise;
  /** Cumulative day volume, when the feed gives it. */
  readonly volume?: number;
  readonly bid?: Paise;
  readonly ask?: Paise;
  readonly bidQty?: number;
  readonly askQty?: number;
  readonly open?: Paise;
  readonly high?: Paise;
  readonly low?: Paise;
  /** Previous close. */
  readonly close?: Paise;
  readonly oi?: number;
  /** Last trade time, epoch ms. */
  readonly ltt?: number;
}

/**
 * A completed candle. `start` is the bucket's open time (spec 4.2: covers [start, start+interval));
 * `ts` is when it became known, i.e. its close: a strategy never sees a candle before `ts`.
 */
export interface CandleEvent {
  readonly type: 'candle';
  readonly ts: number;
  readonly instrument: string;
  readonly interval: Interval;
  readonly start: number;
  readonly open: Paise;
  readonly high: Paise;
  readonly low: Paise;
  readonly close: Paise;
  readonly volume: number;
  readonly oi?: number;
}

/** One true state of an order, as the order state machine knows it after merging every source. */
export interface OrderSnapshot {
  /** Our client tag (the intent id), carried in `remarks`. */
  readonly tag: string;
  readonly strategyId: string;
  /** Broker order id, once known. */
  readonly orderId?: string;
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly orderType: OrderType;
  readonly product: Product;
  readonly validity: Validity;
  readonly limitPrice?: Paise;
  readonly triggerPrice?: Paise;
  readonly status: OrderStatus;
  /** The broker's own status text, for display and diagnosis. */
  readonly venueStatus?: string;
  readonly filledQty: number;
  /** Sum of fill qty x price, paise: the exact average is filledValue / filledQty. */
  readonly filledValue: Paise;
  /** Modifications accepted so far (the broker caps them at 25, spec 4.6). */
  readonly modifications: number;
  /** Rejection or cancellation reason (`extra_info`). */
  readonly reason?: string;
  /** For smart-order legs: the parent's tag and which leg this is. */
  readonly parentTag?: string;
  readonly leg?: 'entry' | 'stopLoss' | 'target';
  /** Cancel-and-replace: the tag of the order this one replaced (the engine does this near the modification cap). */
  readonly replaces?: string;
  /**
   * Auto-slicing (`execution.autoSlice`, an F&O order above the freeze quantity): on the order the
   * strategy asked for, the number of slices it was placed as (its state aggregates theirs); on
   * each slice, the tag of that order. Strategies hear of the aggregate only.
   */
  readonly slices?: number;
  readonly sliceOf?: string;
  /**
   * Set while the venue reports more filled quantity than the fills booked (its trades are still
   * being read): the position does not show those fills yet. A terminal order that is settling is
   * neither working nor done to a strategy (see OrdersView), and no new entry in its instrument
   * is allowed until it settles.
   */
  readonly settling?: true;
}

export interface OrderEvent {
  readonly type: 'order';
  readonly ts: number;
  readonly order: OrderSnapshot;
}

export interface FillEvent {
  readonly type: 'fill';
  readonly ts: number;
  /** Unique per venue fill: duplicates are dropped by this id. */
  readonly fillId: string;
  readonly tag: string;
  readonly strategyId: string;
  readonly orderId?: string;
  readonly instrument: string;
  readonly side: Side;
  readonly qty: number;
  readonly price: Paise;
  readonly product: Product;
  /** Charges attributed to this fill, paise (0 when not modelled). */
  readonly charges?: Paise;
}

export interface PositionEvent {
  readonly type: 'position';
  readonly ts: number;
  readonly instrument: string;
  readonly product: Product;
  /** Signed: positive long, negative short. */
  readonly netQty: number;
  /** Cost of the open quantity, paise (exact average = openValue / |netQty|). */
  readonly openValue: Paise;
  readonly realizedPnl: Paise;
  /** At the last known price, paise; absent when no price is known. */
  readonly unrealizedPnl?: Paise;
  /** When set, the position belongs to one strategy; absent for the account-wide view. */
  readonly strategyId?: string;
}

export interface IntentEvent {
  readonly type: 'intent';
  readonly ts: number;
  readonly intent: Intent;
}

export const DenialCode = {
  INSUFFICIENT_FUNDS: 'INSUFFICIENT_FUNDS',
  MODIFICATION_CAP: 'MODIFICATION_CAP',
  SMART_LEG_BOUND: 'SMART_LEG_BOUND',
  LOT_SIZE: 'LOT_SIZE',
  /** An F&O order above its underlying's freeze quantity (and not auto-sliced, or too large to slice). */
  FREEZE_QTY: 'FREEZE_QTY',
  TICK_SIZE: 'TICK_SIZE',
  CIRCUIT_LIMIT: 'CIRCUIT_LIMIT',
  /** An F&O LIMIT price outside the contract's execution range around its last price. */
  PRICE_BAND: 'PRICE_BAND',
  /** An INTRADAY order that opens or adds after the intraday square-off cutoff. */
  INTRADAY_CUTOFF: 'INTRADAY_CUTOFF',
  MAX_ORDER_VALUE: 'MAX_ORDER_VALUE',
  MAX_POSITION: 'MAX_POSITION',
  MAX_OPEN_ORDERS: 'MAX_OPEN_ORDERS',
  ORDER_RATE: 'ORDER_RATE',
  DAILY_LOSS: 'DAILY_LOSS',
  TRADING_STATE: 'TRADING_STATE',
  UNKNOWN_INSTRUMENT: 'UNKNOWN_INSTRUMENT',
  UNKNOWN_ORDER: 'UNKNOWN_ORDER',
  INVALID_INTENT: 'INVALID_INTENT',
  /** The strategy is still consuming its warm-up candles, or is paused after an error. */
  STRATEGY_NOT_READY: 'STRATEGY_NOT_READY',
  /** The venue refused it (after risk passed). */
  VENUE_REJECTED: 'VENUE_REJECTED',
  /**
   * No new entry in this instrument for now: an order's fills are still being read, or the
   * position differs from the broker's (reducing intents pass).
   */
  INSTRUMENT_HELD: 'INSTRUMENT_HELD',
  /**
   * The execution layer could not carry the intent out (its id is already in use by another
   * order, or the order could not be tracked): never dropped in silence, denied in its name.
   */
  EXECUTION_ERROR: 'EXECUTION_ERROR',
} as const;
export type DenialCode = (typeof DenialCode)[keyof typeof DenialCode];

/** An intent that was not carried out, and why. Not an exception: an event (nautilus OrderDenied). */
export interface DeniedEvent {
  readonly type: 'denied';
  readonly ts: number;
  readonly intent: Intent;
  readonly code: DenialCode;
  readonly reason: string;
}

export const LifecyclePhase = {
  STARTING: 'starting',
  STARTED: 'started',
  STOPPING: 'stopping',
  STOPPED: 'stopped',
  CONNECTED: 'connected',
  DISCONNECTED: 'disconnected',
  RECONCILED: 'reconciled',
  /** The execution engine cancels an order near the modification cap and places a replacement. */
  ORDER_REPLACED: 'order_replaced',
  /** The execution engine places an order above the freeze quantity in slices (`execution.autoSlice`). */
  ORDER_SLICED: 'order_sliced',
  /** The engine emulates a trailing stop the venue cannot trail, or exits on one it emulates. */
  TRAILING_STOP: 'trailing_stop',
  STRATEGY_PAUSED: 'strategy_paused',
  SESSION_OPEN: 'session_open',
  SESSION_CLOSE: 'session_close',
} as const;
export type LifecyclePhase = (typeof LifecyclePhase)[keyof typeof LifecyclePhase];

/**
 * Why a connection (`connected`/`disconnected` lifecycle) changed: alerts and health read this,
 * never `detail` (which is for people).
 * - `connected`, `reconnected`: the first open, an open after a drop;
 * - `dropped`: closed by the network, the server or a failed handshake;
 * - `stalled`: open but silent past the stall timeout while frames were expected, so the client
 *   dropped it to reconnect (a stall incident lasts, through reconnects, until frames flow again);
 * - `flowing`: the first frame after a stall (phase `connected`): the stream carries data again.
 */
export const ConnectionCause = {
  CONNECTED: 'connected',
  RECONNECTED: 'reconnected',
  DROPPED: 'dropped',
  STALLED: 'stalled',
  FLOWING: 'flowing',
} as const;
export type ConnectionCause = (typeof ConnectionCause)[keyof typeof ConnectionCause];

export interface LifecycleEvent {
  readonly type: 'lifecycle';
  readonly ts: number;
  readonly phase: LifecyclePhase;
  /** Which component, e.g. `ws:prices#0`, `venue:broker`, `store`, `strategy:sma-1`, `engine`. */
  readonly source: string;
  readonly detail?: string;
  /** For `connected`/`disconnected`: why (see ConnectionCause). */
  readonly cause?: ConnectionCause;
}

/**
 * The trading state changed (risk publishes one on every change: operator halt or resume, the kill
 * switch, a restored state). Readers take `from`/`to`, never text: `reason` is for people.
 */
export interface TradingStateEvent {
  readonly type: 'trading-state';
  readonly ts: number;
  readonly from: TradingState;
  readonly to: TradingState;
  /** Why, e.g. `operator`, `operator resume`, `kill switch`. */
  readonly reason: string;
}

export const AlertLevel = { INFO: 'info', WARN: 'warn', CRITICAL: 'critical' } as const;
export type AlertLevel = (typeof AlertLevel)[keyof typeof AlertLevel];

/** Something an operator must hear about (kill switch, lockout, long disconnect). */
export interface AlertEvent {
  readonly type: 'alert';
  readonly ts: number;
  readonly level: AlertLevel;
  readonly code: string;
  readonly message: string;
  readonly context?: Readonly<Record<string, unknown>>;
}

/**
 * The broker squared an INTRADAY position off near the close (its RMS, not a strategy's order):
 * one per broker fill, after the fills it books to the strategies that held the position
 * (tag `square-off:<orderId>`). `unowned`: quantity no strategy held.
 */
export interface SquareOffEvent {
  readonly type: 'square-off';
  readonly ts: number;
  readonly orderId: string;
  readonly fillId: string;
  readonly instrument: string;
  readonly product: Product;
  readonly side: Side;
  readonly qty: number;
  readonly price: Paise;
  readonly strategies: ReadonlyArray<{ readonly strategyId: string; readonly qty: number }>;
  readonly unowned: number;
}

/** The write whose answer was lost: one of the six venue writes. */
export type LostWriteOp = 'place' | 'placeSmart' | 'modify' | 'modifySmart' | 'cancel' | 'cancelSmart';

export const LostAnswerVerdict = {
  /** The order book shows the write was carried out (placed, modified, cancelled). */
  DONE: 'done',
  /** The order book shows it was not (a placement absent after every look; an order that finished without the change). */
  NOT_DONE: 'not-done',
  /** The order book proved the first write never arrived: it was sent once more. */
  RESENT: 'resent',
  /** The order book cannot say (not readable, or it does not show the changed field). */
  UNDECIDED: 'undecided',
} as const;
export type LostAnswerVerdict = (typeof LostAnswerVerdict)[keyof typeof LostAnswerVerdict];

/**
 * A write lost its answer and the execution reconciler settled it from the order book
 * (src/adapters/execution/lost-answers.ts). One event per verdict; a resend is followed by the
 * verdict on the second write.
 */
export interface LostAnswerEvent {
  readonly type: 'lost-answer';
  readonly ts: number;
  /** The order's tag (a smart leg's own `<tag>.sl` / `<tag>.tg`). */
  readonly tag: string;
  readonly op: LostWriteOp;
  readonly verdict: LostAnswerVerdict;
  /** Order-book looks it took. */
  readonly looks: number;
  /** 1 for the first write, 2 for the one resend. */
  readonly round: 1 | 2;
  readonly orderId?: string;
  /** Why, for people. */
  readonly reason: string;
}

export type Event =
  | TickEvent
  | CandleEvent
  | OrderEvent
  | FillEvent
  | PositionEvent
  | IntentEvent
  | DeniedEvent
  | LifecycleEvent
  | TradingStateEvent
  | AlertEvent
  | SquareOffEvent
  | LostAnswerEvent;

/** The member of the union with the given `type`. */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;
