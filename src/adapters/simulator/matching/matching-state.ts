/**
 * The matching engine's state and the order life every part of it shares: admission (reserve
 * margin, rest or queue), fills booked (trades, positions, events), and finishing an order. The
 * coordinator (`MatchingEngine`), the smart orders (smart-orders.ts) and the sessions
 * (sessions.ts) all work on one `MatchingState`, handed to them explicitly; how an order fills
 * against an update is the fill model's (fill-model.ts).
 *
 * Events are queued as the state changes and delivered by `flush()` once a public call's change
 * is complete (a listener may call back into the engine; its events queue behind the current ones).
 */
import type { Clock } from '../../../core/clock.js';
import type { OrderType, Product, Side, Validity } from '../../../core/enums.js';
import type { Instrument, InstrumentLookup } from '../../../core/instruments.js';
import { InvariantError, describeError } from '../../../core/errors.js';
import type { Paise } from '../../../core/money.js';
import { istDate } from '../../../core/time.js';
import { VenueAccount } from './account.js';
import { VenueInputError, VenueNotFoundError, VenueOrderError } from './errors.js';
import { barFill, protectionPrice, takerLevels, tickFills, walk } from './fill-model.js';
import { resolveSettings, type MatchingEngineOptions, type ResolvedSettings } from './options.js';
import { Phase, TERMINAL, snapshot, smartSnapshot, type Book, type Fill, type OrderState, type SmartState } from './order-state.js';
import { entryEnded, onSmartFill } from './smart-orders.js';
import type { BookLevel, Depth, MarketUpdate, SimEvent, SimListener, SimSettlement, SimTrade, SmartLeg, UpdateMode } from './types.js';
import { SmartStatus } from './venue-status.js';
import { circuitRefusal, executionRangeRefusal, freezeRefusal, stopSideRefusal } from './validation.js';
import { squareOffTimes, type SquareOffSegment, type SquareOffTimes } from '../../../risk/rules/square-off.js';
import { cutoffRefusal } from './square-off.js';

/** What a new order is made from (`MatchingState.newOrder`). */
export interface NewOrder {
  readonly prefix: 'EQ' | 'DRV' | 'GTT';
  readonly instrument: Instrument;
  readonly side: Side;
  readonly product: Product;
  readonly requestedOrderType: OrderType;
  readonly validity: Validity;
  readonly isAmo: boolean;
  readonly qty: number;
  readonly limitPrice: Paise | undefined;
  readonly triggerPrice: Paise | undefined;
  readonly marketLike: boolean;
  readonly remarks: string;
  readonly algoId: string;
  readonly isTsl: boolean;
  readonly tslStepSize: Paise | undefined;
  readonly now: number;
  readonly leg: SmartLeg | undefined;
}

/** Quantity an update still offers per side (its `availableQty`, shared by the orders it fills). */
export interface SideBudget {
  BUY: number;
  SELL: number;
}

export class MatchingState {
  readonly account: VenueAccount;
  readonly settings: ResolvedSettings;
  readonly instruments: InstrumentLookup;
  readonly clock: Clock;
  readonly depthProvider: ((instrument: string) => Depth | undefined) | undefined;
  readonly underlyingClose: ((contract: Instrument) => Paise | undefined) | undefined;
  readonly listeners: SimListener[] = [];
  readonly queue: SimEvent[] = [];
  flushing = false;
  /** Books by instrument id: look one up with `bookOf` and drop one with `dropBook` (they keep the last found). */
  readonly books = new Map<string, Book>();
  readonly orderMap = new Map<string, OrderState>();
  dayOrders: OrderState[] = [];
  dayTrades: SimTrade[] = [];
  readonly tradesByOrder = new Map<string, SimTrade[]>();
  readonly smartMap = new Map<string, SmartState>();
  amoQueue: OrderState[] = [];
  seq = 0;
  fillSeq = 0;
  sessionOpen: boolean;
  sessionDate: string | undefined;
  /** S of contracts whose expiry session has closed, until they settle at the next date's open. */
  readonly expiryCloses = new Map<string, Paise>();
  daySettlements: SimSettlement[] = [];
  /**
   * The market point the fill being booked happened at (within `matchOnUpdate`): smart legs armed
   * by that fill see the update's path from there on (`OrderState.armedAt`).
   */
  fillPoint: Paise | undefined;
  /** Legs armed at a `fillPoint` since `onMarket` last looked (it then checks them in the same update). */
  armedLegs = 0;
  readonly squareOffTimes: SquareOffTimes;
  /** Segments squared off in the current session (square-off.ts); cleared at every open. */
  readonly squaredOff = new Set<SquareOffSegment>();
  private lastBookId: string | undefined;
  private lastBook: Book | undefined;
  private lastExchValue = Number.NaN;
  private lastExchText = '';

  constructor(options: MatchingEngineOptions) {
    this.settings = resolveSettings(options);
    this.instruments = options.instruments;
    this.clock = options.clock;
    this.depthProvider = options.depth;
    this.underlyingClose = options.underlyingClose;
    this.squareOffTimes = options.squareOffTimes ?? squareOffTimes();
    this.account = options.account ?? new VenueAccount({ now: () => options.clock.now(), ...(options.accountOptions ?? {}), instruments: options.instruments });
    this.sessionOpen = this.settings.sessionOpen;
    if (this.sessionOpen) this.sessionDate = istDate(this.clock.now());
  }

  // ------------------------------------------------------------------------------------------
  // Admission

  /** Records a new order and admits it; returns the refusal reason when it failed. */
  admit(o: OrderState, now: number): string | undefined {
    this.dayOrders.push(o);
    this.orderMap.set(o.orderId, o);
    const book = this.book(o.instrument);
    if (o.isAmo && this.sessionOpen) return this.refuse(o, now, 'AMO orders are accepted only outside market hours');
    if (!o.isAmo && !this.sessionOpen) return this.refuse(o, now, 'Market is closed: place an after-market order (AMO) instead');
    const freeze = freezeRefusal(o.instrument, o.qty, now);
    if (freeze) return this.refuse(o, now, freeze);
    if (this.squaredOff.size > 0) {
      const cutoff = cutoffRefusal(this, o);
      if (cutoff) return this.refuse(o, now, cutoff);
    }
    if (o.requestedOrderType === 'MARKET') {
      if (book.ltp === undefined && this.settings.matchOnArrival && !o.isAmo) return this.refuse(o, now, `No market price is available for ${o.instrument.tradingSymbol}`);
      if (book.ltp !== undefined) this.protect(o, book, book.ltp);
    }
    const circuit = circuitRefusal(book, o.limitPrice) ?? circuitRefusal(book, o.triggerPrice);
    if (circuit) return this.refuse(o, now, circuit);
    // The F&O execution range, for a LIMIT order that may trade now (smart legs trade later, against a later reference).
    if (o.requestedOrderType === 'LIMIT' && o.limitPrice !== undefined && (o.leg === undefined || o.leg === 'entry')) {
      const range = executionRangeRefusal(o.instrument, o.limitPrice, book, now);
      if (range) return this.refuse(o, now, range);
    }
    if (o.requestedOrderType === 'STOP_LOSS' && o.leg !== 'entry') {
      const side = stopSideRefusal(book, o.side, o.triggerPrice!);
      if (side) return this.refuse(o, now, side);
      o.triggerDir = o.side === 'BUY' ? 1 : -1;
    }
    const blockPrice = o.limitPrice ?? o.triggerPrice ?? book.ltp;
    if (blockPrice === undefined) return this.refuse(o, now, `No market price is available for ${o.instrument.tradingSymbol}`);
    const r = this.account.reserve(o.orderId, o.instrument, o.side, o.qty, blockPrice, o.product);
    if (!r.ok) return this.refuse(o, now, r.reason);
    if (o.isAmo) {
      o.phase = Phase.QUEUED;
      this.amoQueue.push(o);
      this.emitOrder(o, now);
      return undefined;
    }
    o.phase = o.requestedOrderType === 'STOP_LOSS' ? Phase.TRIGGER : Phase.WORKING;
    o.fresh = true;
    book.working.push(o);
    this.emitOrder(o, now);
    if (this.settings.matchOnArrival && o.phase === Phase.WORKING) {
      this.takeOnArrival(o, now);
      o.fresh = false;
      if (o.validity === 'IOC' && !TERMINAL.has(o.phase)) this.finish(o, Phase.CANCELLED, 'IOC order: unfilled quantity cancelled', now);
    }
    return undefined;
  }

  /** Admission refused: the order fails with `reason` (published), which is returned. */
  private refuse(o: OrderState, now: number, reason: string): string {
    o.phase = Phase.FAILED;
    o.extraInfo = reason;
    o.exchOrderId = '';
    this.emitOrder(o, now);
    return reason;
  }

  /** Re-blocks margin for a modification; throws (order unchanged) when it cannot be funded. */
  reblock(o: OrderState, qty: number, limitPrice: Paise | undefined, triggerPrice: Paise | undefined): void {
    if (o.phase === Phase.DORMANT) return;
    const price = limitPrice ?? triggerPrice ?? this.book(o.instrument).ltp;
    if (price === undefined) return;
    const r = this.account.reserve(o.orderId, o.instrument, o.side, qty - o.filledQty, price, o.product);
    if (!r.ok) throw new VenueOrderError(r.reason, { orderId: o.orderId });
  }

  /** Sets a MARKET (or stop-market) order's protection price from `ref`. */
  protect(o: OrderState, book: Book, ref: Paise): void {
    if (!o.marketLike) return;
    if (o.requestedOrderType !== 'MARKET' && o.phase !== Phase.WORKING) return;
    o.limitPrice = protectionPrice(o.side, ref, this.settings.marketProtectionPct, o.instrument.tickSize, book.upper, book.lower);
  }

  // ------------------------------------------------------------------------------------------
  // Matching (the prices are the fill model's; this books them)

  /** An arrival in matchOnArrival mode takes the current book, level by level, up to its limit. */
  /**
   * Fills `o` whole at the instrument's last price (a backtest's broker square-off: the candle it
   * comes at has no book to walk, and its last price lies inside it). Nothing without a price.
   */
  fillAtLast(o: OrderState, ts: number): void {
    const ltp = this.book(o.instrument).ltp;
    if (ltp === undefined) return;
    this.applyFills(o, [{ price: ltp, qty: o.qty - o.filledQty }], ts);
  }

  takeOnArrival(o: OrderState, ts: number): void {
    const book = this.book(o.instrument);
    if (book.ltp === undefined) return;
    const levels = this.levels(book, o.side, true);
    const fills = walk(o, levels, o.side === 'BUY' ? book.takenAsk : book.takenBid, Infinity, true, this.settings.slippageTicks);
    this.applyFills(o, fills, ts);
  }

  /**
   * Matches one working order against update `u`; returns the quantity filled. `from` is where the
   * order's view of a path segment starts (the previous point, or the point it armed at).
   */
  matchOnUpdate(o: OrderState, book: Book, u: MarketUpdate, mode: UpdateMode, budget: SideBudget, from: Paise | undefined): number {
    const side = o.side;
    const taker = o.fresh;
    let fills: Fill[];
    if (mode === 'tick') {
      fills = tickFills(o, this.levels(book, side, false), side === 'BUY' ? book.takenAsk : book.takenBid, budget[side], taker, this.settings.slippageTicks);
      this.fillPoint = u.ltp;
    } else {
      const f = barFill(o, { mode, to: u.ltp, from, low: u.low, high: u.high }, taker, this.settings.slippageTicks);
      if (f === undefined) return 0;
      if ((u.low !== undefined && f.price < u.low) || (u.high !== undefined && f.price > u.high)) {
        throw new InvariantError(`fill of ${o.orderId} at ${f.price} outside its candle [${u.low}, ${u.high}]`, { orderId: o.orderId, price: f.price });
      }
      const qty = Math.min(o.qty - o.filledQty, budget[side]);
      fills = qty > 0 ? [{ price: f.price, qty }] : [];
      this.fillPoint = f.point;
    }
    let total = 0;
    for (const f of fills) total += f.qty;
    budget[side] -= total;
    this.applyFills(o, fills, u.ts);
    this.fillPoint = undefined;
    return total;
  }

  /** Opposite-side levels: the update's depth, else (arrivals) the depth provider's, else top of book. */
  private levels(book: Book, side: Side, arrival: boolean): readonly BookLevel[] {
    const depth = book.depth ?? (arrival && this.depthProvider ? this.depthProvider(book.instrument.id) : undefined);
    return takerLevels(book, side, depth);
  }

  /** Books fills: order, account, trades, events, and a smart order's next step. */
  private applyFills(o: OrderState, fills: readonly Fill[], ts: number): void {
    for (const f of fills) {
      if (f.qty <= 0) continue;
      o.filledQty += f.qty;
      o.filledValue += f.qty * f.price;
      o.updatedAt = ts;
      const done = o.filledQty >= o.qty;
      if (done) {
        o.phase = Phase.FILLED;
        o.fresh = false;
        this.account.release(o.orderId);
        this.unwork(o);
      }
      const { position, charges } = this.account.applyFill(o.instrument, o.side, f.qty, f.price, o.product);
      if (!done) this.rereserveRemainder(o);
      const n = ++this.fillSeq;
      const trade: SimTrade = {
        fillId: String(this.settings.idBase + n),
        tradeSerialNo: n,
        orderId: o.orderId,
        exchOrderId: o.exchOrderId,
        instrument: o.instrument.id,
        securityId: o.instrument.securityId,
        tradingSymbol: o.instrument.tradingSymbol,
        side: o.side,
        product: o.product,
        qty: f.qty,
        price: f.price,
        ts,
        remarks: o.remarks,
        charges,
      };
      this.dayTrades.push(trade);
      const list = this.tradesByOrder.get(o.orderId);
      if (list) list.push(trade);
      else this.tradesByOrder.set(o.orderId, [trade]);
      if (this.listeners.length > 0) {
        const order = snapshot(o);
        this.queue.push({ type: 'fill', ts, trade, order });
        this.queue.push({ type: 'order', ts, order });
        this.queue.push({ type: 'position', ts, position });
      }
      if (o.smart) onSmartFill(this, o, ts);
    }
  }

  private rereserveRemainder(o: OrderState): void {
    const price = o.limitPrice ?? o.triggerPrice ?? this.book(o.instrument).ltp;
    if (price === undefined) return;
    this.account.reserve(o.orderId, o.instrument, o.side, o.qty - o.filledQty, price, o.product, true);
  }

  // ------------------------------------------------------------------------------------------
  // Bookkeeping

  /** Ends an order (`phase` terminal): margin released, off the book, published. */
  finish(o: OrderState, phase: Phase, reason: string, ts: number): void {
    o.phase = phase;
    o.fresh = false;
    o.extraInfo = reason;
    o.updatedAt = ts;
    this.account.release(o.orderId);
    this.unwork(o);
    if (o.isAmo) this.amoQueue = this.amoQueue.filter((x) => x !== o);
    this.emitOrder(o, ts);
    const smart = o.smart;
    if (smart && o.leg === 'entry' && (phase === Phase.CANCELLED || phase === Phase.EXPIRED) && smart.status === SmartStatus.CREATED) entryEnded(this, smart, ts);
  }

  /** Moves a working order to the back of its book as a fresh arrival. */
  requeue(o: OrderState): void {
    this.unwork(o);
    o.fresh = true;
    this.book(o.instrument).working.push(o);
  }

  unwork(o: OrderState): void {
    const book = this.bookOf(o.instrument.id);
    if (!book) return;
    const i = book.working.indexOf(o);
    if (i >= 0) book.working.splice(i, 1);
  }

  newOrder(a: NewOrder): OrderState {
    const n = ++this.seq;
    const num = this.settings.idBase + n;
    return {
      seq: n,
      orderId: `${a.prefix}-${num}`,
      exchOrderId: this.exchOrderId(num),
      instrument: a.instrument,
      side: a.side,
      product: a.product,
      requestedOrderType: a.requestedOrderType,
      validity: a.validity,
      isAmo: a.isAmo,
      qty: a.qty,
      limitPrice: a.limitPrice,
      triggerPrice: a.triggerPrice,
      triggerDir: a.side === 'BUY' ? 1 : -1,
      marketLike: a.marketLike,
      filledQty: 0,
      filledValue: 0,
      phase: Phase.WORKING,
      extraInfo: '',
      remarks: a.remarks,
      algoId: a.algoId,
      isTsl: a.isTsl,
      tslStepSize: a.tslStepSize,
      modifications: 0,
      createdAt: a.now,
      updatedAt: a.now,
      fresh: false,
      armedAt: undefined,
      smart: undefined,
      leg: a.leg,
    };
  }

  /**
   * The exchange's id of order `num`: 1.1e18 + num is past 2^53, so it is a double that a run of
   * about 128 consecutive orders share, and printing one takes the slow shortest-digits path. The
   * last text is kept for the next order with the same value: the same string, printed once.
   */
  private exchOrderId(num: number): string {
    const x = 1_100_000_000_000_000 + num;
    if (x !== this.lastExchValue) {
      this.lastExchValue = x;
      this.lastExchText = String(x);
    }
    return this.lastExchText;
  }

  mustFind(orderId: string): OrderState {
    const o = this.orderMap.get(orderId);
    if (!o) throw new VenueNotFoundError(`order_id: no order ${orderId}`, { orderId });
    return o;
  }

  /**
   * The book of instrument `id`, if any. The last one found is kept: a backtest asks for one
   * instrument's book candle after candle (the driver, then `onMarket`).
   */
  bookOf(id: string): Book | undefined {
    if (id === this.lastBookId) return this.lastBook;
    const b = this.books.get(id);
    if (b !== undefined) {
      this.lastBookId = id;
      this.lastBook = b;
    }
    return b;
  }

  /** Drops a book (a contract past its expiry with nothing working). */
  dropBook(id: string): void {
    this.books.delete(id);
    if (id === this.lastBookId) {
      this.lastBookId = undefined;
      this.lastBook = undefined;
    }
  }

  book(i: Instrument): Book {
    let b = this.bookOf(i.id);
    if (!b) {
      b = {
        instrument: i,
        ts: 0,
        ltp: undefined,
        bid: undefined,
        ask: undefined,
        bidQty: undefined,
        askQty: undefined,
        depth: undefined,
        upper: undefined,
        lower: undefined,
        working: [],
        takenAsk: new Map(),
        takenBid: new Map(),
      };
      this.books.set(i.id, b);
    }
    return b;
  }

  bookById(id: string): Book {
    const i = this.instruments.get(id);
    if (!i) throw new VenueInputError(`market update for unknown instrument ${id}`, { instrument: id });
    return this.book(i);
  }

  emitOrder(o: OrderState, ts: number): void {
    if (this.listeners.length > 0) this.queue.push({ type: 'order', ts, order: snapshot(o) });
  }

  emitSmart(s: SmartState, ts: number): void {
    if (this.listeners.length > 0) this.queue.push({ type: 'smart', ts, smart: smartSnapshot(s) });
  }

  /**
   * Delivers queued events. Every event reaches every listener even if one throws (the state change
   * has happened; hiding it from the others would lose it); the first error is rethrown afterwards.
   */
  flush(): void {
    if (this.flushing) return;
    this.flushing = true;
    let failure: { error: unknown } | undefined;
    try {
      for (let k = 0; k < this.queue.length; k++) {
        const e = this.queue[k]!;
        for (const l of this.listeners) {
          try {
            l(e);
          } catch (error) {
            failure ??= { error };
          }
        }
      }
    } finally {
      // Setting an array's length is a runtime call even when it is already 0.
      if (this.queue.length !== 0) this.queue.length = 0;
      this.flushing = false;
    }
    if (failure) throw new InvariantError(`a matching engine listener failed: ${describeError(failure.error)}`, {}, { cause: failure.error });
  }
}
