/**
 * The matching engine: the one fill model of tarang. The simulator's HTTP server and the
 * backtester both drive it in-process; it knows nothing of HTTP or wall time. Time comes from the
 * `Clock` (placements, modifications, cancels, sessions) and from the `ts` of market updates
 * (fills). Same inputs in the same order give the same outputs, ids included.
 *
 * This class is the coordinator and the public API; the parts work on one shared `MatchingState`:
 * - fill-model.ts: how an order fills against an update (the fill rules, pure);
 * - matching-state.ts: the state, admission, fills booked, finishing an order, events;
 * - validation.ts: the checks on requests and the refusals of well-formed orders;
 * - smart-orders.ts: smart orders (entry + OCO legs, trailing);
 * - sessions.ts: session open and close, expiry and cash settlement;
 * - square-off.ts: the broker's intraday square-off near the close.
 *
 * Order rules:
 * - LIMIT: rests until the market crosses it; a marketable arrival takes the book level by level
 *   (partial fills on thin depth), the remainder rests (DAY) or is cancelled (IOC).
 * - MARKET: recorded as LIMIT at a protection price (last price +/- `marketProtectionPct`, within
 *   the circuit band), as the live service does; then as LIMIT, with `slippageTicks` applied.
 * - STOP_LOSS: waits for the trigger (BUY: price >= trigger, SELL: price <= trigger), then works as
 *   LIMIT at its limit price, or as MARKET when it has none.
 * - DAY orders expire at `expireSession`; AMO orders wait for `openSession` and take the first
 *   price after it; smart orders live across sessions until filled, cancelled or 365 days old.
 * - With `matchOnArrival: false` (backtests) nothing fills before the next market update, and no
 *   order ever fills on an update older than the order (no look-ahead).
 *
 * Listeners hear `order`, `fill`, `position` and `smart` events synchronously, after the state
 * change that caused them is complete, in the order they happened (a listener may call back into
 * the engine; its events queue behind the current ones).
 */
import type { Paise } from '../../../core/money.js';
import type { VenueAccount } from './account.js';
import { VenueInputError, VenueOrderError } from './errors.js';
import { triggerFired } from './fill-model.js';
import { MatchingState, type SideBudget } from './matching-state.js';
import type { MatchingEngineOptions, ResolvedSettings } from './options.js';
import { Phase, TERMINAL, snapshot, smartSnapshot, venueStatusOf, type Book, type OrderState } from './order-state.js';
import { normaliseRemarks } from './remarks.js';
import { expireSession, openSession } from './sessions.js';
import { squareOff } from './square-off.js';
import type { SquareOffSegment, SquareOffTimes } from '../../../risk/rules/square-off.js';
import { cancelSmartOrder, modifySmartOrder, placeSmartOrder, settleSmart, trail } from './smart-orders.js';
import type {
  CancelOrderResult,
  MarginQuery,
  MarketUpdate,
  ModifyOrderRequest,
  ModifyOrderResult,
  ModifySmartOrderRequest,
  PlaceOrderAck,
  PlaceOrderRequest,
  PlaceOrderResult,
  SimListener,
  SimMarginResult,
  SimOrder,
  SimSettlement,
  SimTrade,
  SmartOrderRecord,
  SmartOrderRequest,
  SmartOrderResult,
  UpdateMode,
} from './types.js';
import {
  checkModifiable,
  checkOneOf,
  checkPrice,
  checkProduct,
  checkQty,
  checkStopLimit,
  circuitRefusal,
  executionRangeRefusal,
  freezeRefusal,
  ORDER_TYPES,
  PRODUCTS,
  SIDES,
  stopSideRefusal,
  tradable,
  VALIDITIES,
} from './validation.js';
import { VenueStatus } from './venue-status.js';

export class MatchingEngine {
  readonly account: VenueAccount;
  readonly settings: ResolvedSettings;
  private readonly st: MatchingState;

  constructor(options: MatchingEngineOptions) {
    this.st = new MatchingState(options);
    this.account = this.st.account;
    this.settings = this.st.settings;
  }

  // ------------------------------------------------------------------------------------------
  // Listeners

  /** Registers a listener; returns its unsubscribe function. */
  subscribe(listener: SimListener): () => void {
    const listeners = this.st.listeners;
    listeners.push(listener);
    return () => {
      const i = listeners.indexOf(listener);
      if (i >= 0) listeners.splice(i, 1);
    };
  }

  // ------------------------------------------------------------------------------------------
  // Reads

  isSessionOpen(): boolean {
    return this.st.sessionOpen;
  }

  getOrder(orderId: string): SimOrder | undefined {
    const o = this.st.orderMap.get(orderId);
    return o ? snapshot(o) : undefined;
  }

  /**
   * The day's order book (orders placed since the last new-day open, and every still-working
   * order), in placement order. Orders that finished before the current day are forgotten.
   */
  orders(): SimOrder[] {
    return this.st.dayOrders.map(snapshot);
  }

  /** The day's trades, or every trade of one order. */
  trades(orderId?: string): SimTrade[] {
    if (orderId !== undefined) return [...(this.st.tradesByOrder.get(orderId) ?? [])];
    return [...this.st.dayTrades];
  }

  /** Positions settled at expiry at this day's open (see sessions.ts). */
  settlements(): SimSettlement[] {
    return [...this.st.daySettlements];
  }

  getSmartOrder(orderId: string): SmartOrderRecord | undefined {
    const s = this.st.smartMap.get(orderId) ?? this.st.orderMap.get(orderId)?.smart;
    return s ? smartSnapshot(s) : undefined;
  }

  smartOrders(): SmartOrderRecord[] {
    return [...this.st.smartMap.values()].map(smartSnapshot);
  }

  lastPrice(instrument: string): Paise | undefined {
    return this.st.bookOf(instrument)?.ltp;
  }

  /** true when the instrument has working orders (cheap; the candle driver's fast path). */
  hasWorkingOrders(instrument: string): boolean {
    const b = this.st.bookOf(instrument);
    return b !== undefined && b.working.length > 0;
  }

  /**
   * Which way an instrument's waiting triggers lean, without building snapshots (the candle
   * driver asks this per candle): `stops` sums +1 per BUY stop and -1 per SELL stop (regular
   * stop-loss orders, smart entries and stop-loss legs), `targets` the same over target legs.
   */
  triggerBias(instrument: string): { stops: number; targets: number } {
    let stops = 0;
    let targets = 0;
    for (const o of this.st.bookOf(instrument)?.working ?? []) {
      if (o.phase !== Phase.TRIGGER) continue;
      const v = o.side === 'BUY' ? 1 : -1;
      if (o.leg === 'target') targets += v;
      else stops += v;
    }
    return { stops, targets };
  }

  /** Working orders of an instrument (trigger-pending and resting), in arrival order. */
  workingOrders(instrument: string): SimOrder[] {
    return (this.st.bookOf(instrument)?.working ?? []).map(snapshot);
  }

  calculateMargin(q: MarginQuery): SimMarginResult {
    if (!this.st.instruments.get(q.instrument)) throw new VenueInputError(`security_id: unknown instrument ${q.instrument}`, { instrument: q.instrument });
    return this.account.calculateMargin(q);
  }

  // ------------------------------------------------------------------------------------------
  // Orders

  /**
   * Places a regular order. Throws VenueInputError for a malformed request (nothing recorded).
   * A well-formed order the rules refuse is recorded as FAILED with `extraInfo` and returned
   * with `rejection` set.
   */
  placeOrder(req: PlaceOrderRequest): PlaceOrderResult {
    const o = this.enterOrder(req);
    const order = snapshot(o);
    return {
      orderId: o.orderId,
      venueStatus: order.venueStatus,
      order,
      ...(o.phase === Phase.FAILED ? { rejection: { errorType: 'OrderException' as const, message: o.extraInfo } } : {}),
    };
  }

  /**
   * `placeOrder` answered without the order's snapshot: what an in-process venue needs, since it
   * hears the order's state through the engine's events (a backtest places an order per signal).
   */
  placeOrderAck(req: PlaceOrderRequest): PlaceOrderAck {
    const o = this.enterOrder(req);
    return { orderId: o.orderId, venueStatus: venueStatusOf(o), rejection: o.phase === Phase.FAILED ? o.extraInfo : undefined };
  }

  /** Checks, records and admits a regular order; a refused one is FAILED (only admission fails a regular order). */
  private enterOrder(req: PlaceOrderRequest): OrderState {
    const st = this.st;
    const now = st.clock.now();
    checkOneOf('txn_type', req.side, SIDES);
    checkOneOf('order_type', req.orderType, ORDER_TYPES);
    checkOneOf('validity', req.validity, VALIDITIES);
    checkOneOf('product', req.product, PRODUCTS);
    const instrument = tradable(st.instruments, req.instrument);
    checkQty(instrument, req.qty, 'qty');
    const remarks = normaliseRemarks(req.remarks);
    const type = req.orderType;
    if (type === 'LIMIT' && req.limitPrice === undefined) throw new VenueInputError('limit_price: required for a LIMIT order', { orderType: type });
    if (type === 'STOP_LOSS' && req.triggerPrice === undefined) {
      throw new VenueInputError('trigger_price: required for a STOP_LOSS order', { orderType: type });
    }
    const limitPrice = type === 'MARKET' ? undefined : req.limitPrice;
    const triggerPrice = type === 'STOP_LOSS' ? req.triggerPrice : undefined;
    if (limitPrice !== undefined) checkPrice(instrument, limitPrice, 'limit_price');
    if (triggerPrice !== undefined) checkPrice(instrument, triggerPrice, 'trigger_price');
    if (type === 'STOP_LOSS' && limitPrice !== undefined && triggerPrice !== undefined) checkStopLimit(req.side, limitPrice, triggerPrice);
    checkProduct(instrument, req.product);
    if (req.isTsl && req.tslStepSize !== undefined) checkPrice(instrument, req.tslStepSize, 'tsl_step_size');

    const o = st.newOrder({
      prefix: instrument.segment === 'EQUITY' ? 'EQ' : 'DRV',
      instrument,
      side: req.side,
      product: req.product,
      requestedOrderType: type,
      validity: req.validity,
      isAmo: req.isAmo ?? false,
      qty: req.qty,
      limitPrice,
      triggerPrice,
      marketLike: type === 'MARKET' || (type === 'STOP_LOSS' && limitPrice === undefined),
      remarks,
      algoId: req.algoId ?? '99999',
      isTsl: req.isTsl ?? false,
      tslStepSize: req.tslStepSize,
      now,
      leg: undefined,
    });
    st.admit(o, now);
    st.flush();
    return o;
  }

  /**
   * Modifies a working order (regular or a part of a smart order). Throws VenueOrderError past the
   * modification cap, for a finished order, or when the new size cannot be funded (the order is
   * then unchanged).
   */
  modifyOrder(orderId: string, changes: ModifyOrderRequest): ModifyOrderResult {
    const st = this.st;
    const o = st.mustFind(orderId);
    if (o.smart) return modifySmartOrder(st, o, o.smart, changes);
    const now = st.clock.now();
    checkModifiable(o, st.settings.maxModifications);
    const qty = changes.qty ?? o.qty;
    checkQty(o.instrument, qty, 'qty');
    if (qty <= o.filledQty) {
      throw new VenueOrderError(`qty: the new quantity ${qty} must exceed the quantity already filled (${o.filledQty})`, { orderId, qty });
    }
    const limitPrice = changes.limitPrice ?? o.limitPrice;
    const triggerPrice = changes.triggerPrice ?? o.triggerPrice;
    if (changes.limitPrice !== undefined) checkPrice(o.instrument, changes.limitPrice, 'limit_price');
    if (changes.triggerPrice !== undefined) {
      if (o.requestedOrderType !== 'STOP_LOSS') throw new VenueInputError('trigger_price: only a STOP_LOSS order has a trigger price', { orderId });
      checkPrice(o.instrument, changes.triggerPrice, 'trigger_price');
    }
    const book = st.book(o.instrument);
    const refusal =
      (qty !== o.qty ? freezeRefusal(o.instrument, qty, now) : undefined) ??
      circuitRefusal(book, limitPrice) ??
      (o.requestedOrderType === 'LIMIT' && changes.limitPrice !== undefined ? executionRangeRefusal(o.instrument, changes.limitPrice, book, now) : undefined) ??
      (o.phase === Phase.TRIGGER && changes.triggerPrice !== undefined ? stopSideRefusal(book, o.side, changes.triggerPrice) : undefined);
    if (refusal) throw new VenueOrderError(refusal, { orderId });
    st.reblock(o, qty, limitPrice, triggerPrice);
    o.qty = qty;
    o.limitPrice = limitPrice;
    o.triggerPrice = triggerPrice;
    // A new price re-enters the book: it is matched as an arrival again (and loses its priority).
    if (changes.limitPrice !== undefined && o.phase === Phase.WORKING) st.requeue(o);
    o.modifications++;
    o.updatedAt = now;
    st.emitOrder(o, now);
    if (st.settings.matchOnArrival && st.sessionOpen && o.phase === Phase.WORKING) {
      st.takeOnArrival(o, now);
      o.fresh = false;
    }
    st.flush();
    return { orderId, venueStatus: VenueStatus.MODIFIED, order: snapshot(o) };
  }

  /** Cancels a working order (for a smart order's part, see `cancelSmartOrder`). */
  cancelOrder(orderId: string): CancelOrderResult {
    const st = this.st;
    const o = st.mustFind(orderId);
    if (o.smart) return cancelSmartOrder(st, o, o.smart);
    const now = st.clock.now();
    if (TERMINAL.has(o.phase)) {
      throw new VenueOrderError(`Order ${orderId} is ${venueStatusOf(o)} and cannot be cancelled`, { orderId, status: venueStatusOf(o) });
    }
    st.finish(o, Phase.CANCELLED, 'Cancelled by user', now);
    st.flush();
    const order = snapshot(o);
    return { orderId, venueStatus: order.venueStatus, order };
  }

  // ------------------------------------------------------------------------------------------
  // Smart orders (smart-orders.ts)

  /**
   * Places a smart order: an entry (LIMIT, MARKET or TRIGGER) with optional stop-loss and target
   * legs that become an OCO pair once the entry fills. A violated leg bound (spec 3.5) or trailing
   * rule (spec 3.4) throws VenueInputError with the exact message and records nothing.
   */
  placeSmartOrder(req: SmartOrderRequest): SmartOrderResult {
    return placeSmartOrder(this.st, req);
  }

  /** Modifies one part of a smart order by its own id (a regular order's id: as `modifyOrder`). */
  modifySmartOrder(orderId: string, changes: ModifySmartOrderRequest): ModifyOrderResult {
    const o = this.st.mustFind(orderId);
    if (!o.smart) return this.modifyOrder(orderId, changes);
    return modifySmartOrder(this.st, o, o.smart, changes);
  }

  /**
   * Cancels by id: the parent (entry) id cancels the whole smart order (entry if working, and the
   * legs); a leg id cancels that leg only.
   */
  cancelSmartOrder(orderId: string): CancelOrderResult {
    const o = this.st.mustFind(orderId);
    if (!o.smart) return this.cancelOrder(orderId);
    return cancelSmartOrder(this.st, o, o.smart);
  }

  // ------------------------------------------------------------------------------------------
  // Sessions (sessions.ts)

  /**
   * Opens the session at `ts` (default: the clock). On a new IST date the account rolls its day
   * and the order book starts afresh (still-working orders stay). Queued AMO orders start working
   * and take the first price after the open.
   */
  openSession(ts: number = this.st.clock.now()): void {
    openSession(this.st, ts);
  }

  /**
   * Closes the session at `ts` (default: the clock): every working DAY order expires (`EXPIRED`,
   * or `PARTIALLY FILLED - EXPIRED`) and its margin is released. Smart orders survive until they
   * are 365 days old. AMO orders placed for the next session stay queued.
   */
  expireSession(ts: number = this.st.clock.now()): void {
    expireSession(this.st, ts);
  }

  /** The broker's square-off time per segment (minutes after IST midnight). */
  get squareOffTimes(): SquareOffTimes {
    return this.st.squareOffTimes;
  }

  /**
   * The broker's intraday square-off of `segment` at `ts` (default: the clock): open INTRADAY
   * orders cancelled, open INTRADAY positions closed by MARKET orders tagged `BROKER-SQUAREOFF`,
   * and INTRADAY orders that open or add refused until the next open (square-off.ts). Once per
   * session; returns the broker orders placed.
   */
  squareOff(segment: SquareOffSegment, ts: number = this.st.clock.now()): SimOrder[] {
    return squareOff(this.st, segment, ts).map(snapshot);
  }

  /** Whether `segment` has been squared off in the current session. */
  isSquaredOff(segment: SquareOffSegment): boolean {
    return this.st.squaredOff.has(segment);
  }

  // ------------------------------------------------------------------------------------------
  // Market

  /**
   * Feeds one market update: the book is refreshed, then every working order of the instrument
   * that is at least as old as the update is checked in arrival order (trailing, triggers,
   * fills). Returns the quantity filled.
   */
  onMarket(u: MarketUpdate): number {
    const st = this.st;
    const book = st.bookOf(u.instrument) ?? st.bookById(u.instrument);
    // A path update is the segment from the previous price to `ltp` (see UpdateMode).
    const from = book.ltp;
    book.ts = u.ts;
    book.ltp = u.ltp;
    book.bid = u.bid;
    book.ask = u.ask;
    book.bidQty = u.bidQty;
    book.askQty = u.askQty;
    book.depth = u.depth;
    if (u.upperCircuit !== undefined) book.upper = u.upperCircuit;
    if (u.lowerCircuit !== undefined) book.lower = u.lowerCircuit;
    if (book.takenAsk.size) book.takenAsk.clear();
    if (book.takenBid.size) book.takenBid.clear();
    st.account.markPrice(u.instrument, u.ltp);
    if (!st.sessionOpen || book.working.length === 0) return 0;

    const mode: UpdateMode = u.mode ?? 'tick';
    const budget: SideBudget = { BUY: u.availableQty ?? Infinity, SELL: u.availableQty ?? Infinity };
    let filled = 0;
    st.armedLegs = 0;
    let pass = [...book.working];
    for (;;) {
      for (const o of pass) {
        const armedAt = o.armedAt;
        o.armedAt = undefined;
        filled += this.matchOne(o, book, u, mode, budget, armedAt ?? from);
      }
      // Legs armed by this update's fills see the rest of its path, from the point they armed at.
      if (st.armedLegs === 0) break;
      st.armedLegs = 0;
      pass = book.working.filter((o) => o.armedAt !== undefined);
    }
    st.flush();
    return filled;
  }

  /** One working order against update `u`: trailing, trigger, fill; `from` starts its view of a path segment. */
  private matchOne(o: OrderState, book: Book, u: MarketUpdate, mode: UpdateMode, budget: SideBudget, from: Paise | undefined): number {
    const st = this.st;
    if (o.createdAt > u.ts || (o.phase !== Phase.TRIGGER && o.phase !== Phase.WORKING)) return 0;
    const wasFresh = o.fresh;
    if (o.phase === Phase.TRIGGER) {
      // A segment that starts beyond the trigger (a leg armed past it) fires at its start, before any trailing.
      const firedAtStart = mode === 'path' && from !== undefined && triggerFired(o, from);
      if (!firedAtStart && o.smart?.trailing && o.leg === 'stopLoss') trail(st, o, u.ltp, u.ts);
      if (!firedAtStart && !triggerFired(o, u.ltp)) return 0;
      o.phase = Phase.WORKING;
      o.fresh = true;
      o.updatedAt = u.ts;
      if (o.leg === 'stopLoss' || o.leg === 'target') {
        // An exit leg blocked nothing while it waited; if the position it protects is gone (or a
        // CNC holding was sold meanwhile) it must be fundable as a fresh order, or it fails.
        const r = st.account.reserve(o.orderId, o.instrument, o.side, o.qty - o.filledQty, o.limitPrice ?? u.ltp, o.product);
        if (!r.ok) {
          st.finish(o, Phase.FAILED, r.reason, u.ts);
          settleSmart(o.smart!);
          st.emitSmart(o.smart!, u.ts);
          return 0;
        }
      }
      st.protect(o, book, u.ltp);
      st.emitOrder(o, u.ts);
      if (o.leg === 'entry' && o.smart) st.emitSmart(o.smart, u.ts);
    } else if (o.requestedOrderType === 'MARKET' && o.limitPrice === undefined) {
      st.protect(o, book, u.ltp);
    }
    const filled = st.matchOnUpdate(o, book, u, mode, budget, from);
    if (wasFresh || o.fresh) {
      o.fresh = false;
      if (o.validity === 'IOC' && !TERMINAL.has(o.phase)) st.finish(o, Phase.CANCELLED, 'IOC order: unfilled quantity cancelled', u.ts);
    }
    return filled;
  }
}
