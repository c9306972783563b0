/**
 * The matching engine: the one fill model of tarang. The simulator's HTTP server and the
 * backtester both drive it in-process; it knows nothing of HTTP or wall time. Time comes from the
 * `Clock` (placements, modifications, cancels, sessions) and from the `ts` of market updates
 * (fills). Same inputs in the same order give the same outputs, ids included.
 *
 * Fill rules (see `UpdateMode` in types.ts for the price an update fills at):
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
 * Expiry (cash settlement, as NSE settles index derivatives): at `expireSession` of a contract's
 * expiry date the underlying's price S is taken (`underlyingClose`); at the first `openSession` of
 * a later date, after the day roll, every open position in a contract past its expiry is closed at
 * its settlement price (future: S; call: max(0, S - K); put: max(0, K - S)) as the day's trade
 * that closes it (`settlements()`, a `position` event), and orders still working in it expire.
 *
 * Listeners hear `order`, `fill`, `position` and `smart` events synchronously, after the state
 * change that caused them is complete, in the order they happened (a listener may call back into
 * the engine; its events queue behind the current ones).
 */
import type { Clock } from '../../../core/clock.js';
import type { OrderType, Product, Side, Validity } from '../../../core/enums.js';
import type { Instrument, InstrumentLookup } from '../../../core/instruments.js';
import { InvariantError, describeError } from '../../../core/errors.js';
import { formatRupees, isOnTick, roundToTick, type Paise } from '../../../core/money.js';
import { DAY_MS, istDate } from '../../../core/time.js';
import { VenueAccount } from './account.js';
import { VenueInputError, VenueNotFoundError, VenueOrderError } from './errors.js';
import { resolveSettings, type MatchingEngineOptions, type ResolvedSettings } from './options.js';
import { normaliseRemarks } from './remarks.js';
import { checkSmartLegBounds, smartEntryPrice } from '../../../risk/rules/smart-leg-bounds.js';
import type {
  BookLevel,
  CancelOrderResult,
  Depth,
  MarginQuery,
  MarketUpdate,
  ModifyOrderRequest,
  ModifyOrderResult,
  ModifySmartOrderRequest,
  PlaceOrderRequest,
  PlaceOrderResult,
  SimEvent,
  SimListener,
  SimMarginResult,
  SimOrder,
  SimSettlement,
  SimTrade,
  SmartLeg,
  SmartOrderRecord,
  SmartOrderRequest,
  SmartOrderResult,
  UpdateMode,
} from './types.js';
import { SmartStatus, VenueStatus } from './venue-status.js';
import { Phase, TERMINAL, snapshot, smartSnapshot, venueStatusOf, type Book, type Fill, type OrderState, type SmartState } from './order-state.js';

export class MatchingEngine {
  readonly account: VenueAccount;
  readonly settings: ResolvedSettings;
  private readonly instruments: InstrumentLookup;
  private readonly clock: Clock;
  private readonly depthProvider: ((instrument: string) => Depth | undefined) | undefined;
  private readonly listeners: SimListener[] = [];
  private readonly queue: SimEvent[] = [];
  private flushing = false;
  private readonly books = new Map<string, Book>();
  private readonly orderMap = new Map<string, OrderState>();
  private dayOrders: OrderState[] = [];
  private dayTrades: SimTrade[] = [];
  private readonly tradesByOrder = new Map<string, SimTrade[]>();
  private readonly smartMap = new Map<string, SmartState>();
  private amoQueue: OrderState[] = [];
  private seq = 0;
  private fillSeq = 0;
  private sessionOpen: boolean;
  private sessionDate: string | undefined;
  private readonly underlyingClose: ((contract: Instrument) => Paise | undefined) | undefined;
  /** S of contracts whose expiry session has closed, until they settle at the next date's open. */
  private readonly expiryCloses = new Map<string, Paise>();
  private daySettlements: SimSettlement[] = [];

  constructor(options: MatchingEngineOptions) {
    this.settings = resolveSettings(options);
    this.instruments = options.instruments;
    this.clock = options.clock;
    this.depthProvider = options.depth;
    this.underlyingClose = options.underlyingClose;
    this.account = options.account ?? new VenueAccount({ ...(options.accountOptions ?? {}), instruments: options.instruments });
    this.sessionOpen = this.settings.sessionOpen;
    if (this.sessionOpen) this.sessionDate = istDate(this.clock.now());
  }

  // ------------------------------------------------------------------------------------------
  // Listeners

  /** Registers a listener; returns its unsubscribe function. */
  subscribe(listener: SimListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  // ------------------------------------------------------------------------------------------
  // Reads

  isSessionOpen(): boolean {
    return this.sessionOpen;
  }

  getOrder(orderId: string): SimOrder | undefined {
    const o = this.orderMap.get(orderId);
    return o ? snapshot(o) : undefined;
  }

  /**
   * The day's order book (orders placed since the last new-day open, and every still-working
   * order), in placement order. Orders that finished before the current day are forgotten.
   */
  orders(): SimOrder[] {
    return this.dayOrders.map(snapshot);
  }

  /** The day's trades, or every trade of one order. */
  trades(orderId?: string): SimTrade[] {
    if (orderId !== undefined) return [...(this.tradesByOrder.get(orderId) ?? [])];
    return [...this.dayTrades];
  }

  /** Positions settled at expiry at this day's open (see the file comment). */
  settlements(): SimSettlement[] {
    return [...this.daySettlements];
  }

  getSmartOrder(orderId: string): SmartOrderRecord | undefined {
    const s = this.smartMap.get(orderId) ?? this.orderMap.get(orderId)?.smart;
    return s ? smartSnapshot(s) : undefined;
  }

  smartOrders(): SmartOrderRecord[] {
    return [...this.smartMap.values()].map(smartSnapshot);
  }

  lastPrice(instrument: string): Paise | undefined {
    return this.books.get(instrument)?.ltp;
  }

  /** true when the instrument has working orders (cheap; the candle driver's fast path). */
  hasWorkingOrders(instrument: string): boolean {
    const b = this.books.get(instrument);
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
    for (const o of this.books.get(instrument)?.working ?? []) {
      if (o.phase !== Phase.TRIGGER) continue;
      const v = o.side === 'BUY' ? 1 : -1;
      if (o.leg === 'target') targets += v;
      else stops += v;
    }
    return { stops, targets };
  }

  /** Working orders of an instrument (trigger-pending and resting), in arrival order. */
  workingOrders(instrument: string): SimOrder[] {
    return (this.books.get(instrument)?.working ?? []).map(snapshot);
  }

  calculateMargin(q: MarginQuery): SimMarginResult {
    if (!this.instruments.get(q.instrument)) throw new VenueInputError(`security_id: unknown instrument ${q.instrument}`, { instrument: q.instrument });
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
    const now = this.clock.now();
    checkOneOf('txn_type', req.side, SIDES);
    checkOneOf('order_type', req.orderType, ORDER_TYPES);
    checkOneOf('validity', req.validity, VALIDITIES);
    checkOneOf('product', req.product, PRODUCTS);
    const instrument = this.tradable(req.instrument);
    this.checkQty(instrument, req.qty, 'qty');
    const remarks = normaliseRemarks(req.remarks);
    const type = req.orderType;
    if (type === 'LIMIT' && req.limitPrice === undefined) throw new VenueInputError('limit_price: required for a LIMIT order', { orderType: type });
    if (type === 'STOP_LOSS' && req.triggerPrice === undefined) {
      throw new VenueInputError('trigger_price: required for a STOP_LOSS order', { orderType: type });
    }
    const limitPrice = type === 'MARKET' ? undefined : req.limitPrice;
    const triggerPrice = type === 'STOP_LOSS' ? req.triggerPrice : undefined;
    if (limitPrice !== undefined) this.checkPrice(instrument, limitPrice, 'limit_price');
    if (triggerPrice !== undefined) this.checkPrice(instrument, triggerPrice, 'trigger_price');
    if (type === 'STOP_LOSS' && limitPrice !== undefined && triggerPrice !== undefined) {
      if (req.side === 'BUY' ? limitPrice < triggerPrice : limitPrice > triggerPrice) {
        throw new VenueInputError(
          `limit_price: for a ${req.side} stop-loss order the limit price should be ${req.side === 'BUY' ? 'at least' : 'at most'} the trigger price ${formatRupees(triggerPrice)}`,
          { limitPrice, triggerPrice },
        );
      }
    }
    this.checkProduct(instrument, req.product);
    if (req.isTsl && req.tslStepSize !== undefined) this.checkPrice(instrument, req.tslStepSize, 'tsl_step_size');

    const o = this.newOrder({
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
    const reason = this.admit(o, now);
    this.flush();
    const order = snapshot(o);
    return {
      orderId: o.orderId,
      venueStatus: order.venueStatus,
      order,
      ...(reason !== undefined ? { rejection: { errorType: 'OrderException' as const, message: reason } } : {}),
    };
  }

  /**
   * Modifies a working order (regular or a part of a smart order). Throws VenueOrderError past the
   * modification cap, for a finished order, or when the new size cannot be funded (the order is
   * then unchanged).
   */
  modifyOrder(orderId: string, changes: ModifyOrderRequest): ModifyOrderResult {
    const o = this.mustFind(orderId);
    if (o.smart) return this.modifySmartOrder(orderId, changes);
    const now = this.clock.now();
    this.checkModifiable(o);
    const qty = changes.qty ?? o.qty;
    this.checkQty(o.instrument, qty, 'qty');
    if (qty <= o.filledQty) {
      throw new VenueOrderError(`qty: the new quantity ${qty} must exceed the quantity already filled (${o.filledQty})`, { orderId, qty });
    }
    const limitPrice = changes.limitPrice ?? o.limitPrice;
    const triggerPrice = changes.triggerPrice ?? o.triggerPrice;
    if (changes.limitPrice !== undefined) this.checkPrice(o.instrument, changes.limitPrice, 'limit_price');
    if (changes.triggerPrice !== undefined) {
      if (o.requestedOrderType !== 'STOP_LOSS') throw new VenueInputError('trigger_price: only a STOP_LOSS order has a trigger price', { orderId });
      this.checkPrice(o.instrument, changes.triggerPrice, 'trigger_price');
    }
    const book = this.book(o.instrument);
    const refusal =
      this.circuitRefusal(book, limitPrice) ??
      (o.phase === Phase.TRIGGER && changes.triggerPrice !== undefined ? this.stopSideRefusal(book, o.side, changes.triggerPrice) : undefined);
    if (refusal) throw new VenueOrderError(refusal, { orderId });
    this.reblock(o, qty, limitPrice, triggerPrice);
    o.qty = qty;
    o.limitPrice = limitPrice;
    o.triggerPrice = triggerPrice;
    // A new price re-enters the book: it is matched as an arrival again (and loses its priority).
    if (changes.limitPrice !== undefined && o.phase === Phase.WORKING) this.requeue(o);
    o.modifications++;
    o.updatedAt = now;
    this.emitOrder(o, now);
    if (this.settings.matchOnArrival && this.sessionOpen && o.phase === Phase.WORKING) {
      this.takeOnArrival(o, now);
      o.fresh = false;
    }
    this.flush();
    return { orderId, venueStatus: VenueStatus.MODIFIED, order: snapshot(o) };
  }

  /** Cancels a working order (for a smart order's part, see `cancelSmartOrder`). */
  cancelOrder(orderId: string): CancelOrderResult {
    const o = this.mustFind(orderId);
    if (o.smart) return this.cancelSmartOrder(orderId);
    const now = this.clock.now();
    if (TERMINAL.has(o.phase)) {
      throw new VenueOrderError(`Order ${orderId} is ${venueStatusOf(o)} and cannot be cancelled`, { orderId, status: venueStatusOf(o) });
    }
    this.finish(o, Phase.CANCELLED, 'Cancelled by user', now);
    this.flush();
    const order = snapshot(o);
    return { orderId, venueStatus: order.venueStatus, order };
  }

  // ------------------------------------------------------------------------------------------
  // Smart orders

  /**
   * Places a smart order: an entry (LIMIT, MARKET or TRIGGER) with optional stop-loss and target
   * legs that become an OCO pair once the entry fills. Leg bounds per spec 3.5 (`checkSmartLegBounds`)
   * and trailing rules (spec 3.4) are checked first: a violation throws VenueInputError with the
   * exact message and records nothing.
   */
  placeSmartOrder(req: SmartOrderRequest): SmartOrderResult {
    const now = this.clock.now();
    checkOneOf('txn_type', req.side, SIDES);
    checkOneOf('order_type', req.entryType, SMART_TYPES);
    checkOneOf('validity', req.validity, VALIDITIES);
    checkOneOf('product', req.product, PRODUCTS);
    const instrument = this.tradable(req.instrument);
    this.checkQty(instrument, req.qty, 'qty');
    this.checkProduct(instrument, req.product);
    const remarks = normaliseRemarks(req.remarks);
    const type = req.entryType;
    if (type === 'LIMIT' && req.limitPrice === undefined) throw new VenueInputError('limit_price: required for a LIMIT smart order', {});
    if (type === 'TRIGGER' && req.triggerPrice === undefined) throw new VenueInputError('trigger_price: required for a TRIGGER smart order', {});
    for (const [name, v] of [
      ['limit_price', type === 'LIMIT' ? req.limitPrice : undefined],
      ['trigger_price', type === 'TRIGGER' ? req.triggerPrice : undefined],
      ['trigger_limit_price', type === 'TRIGGER' ? req.triggerLimitPrice : undefined],
      ['sl_trigger_price', req.stopLoss?.triggerPrice],
      ['sl_limit_price', req.stopLoss?.limitPrice],
      ['tgt_trigger_price', req.target?.triggerPrice],
      ['tgt_limit_price', req.target?.limitPrice],
    ] as const) {
      if (v !== undefined) this.checkPrice(instrument, v, name);
    }
    const book = this.book(instrument);
    const entryPrice = smartEntryPrice(type, {
      limitPrice: req.limitPrice,
      triggerPrice: req.triggerPrice,
      triggerLimitPrice: req.triggerLimitPrice,
      lastPrice: book.ltp,
    });
    if (entryPrice === undefined && (req.stopLoss || req.target)) {
      throw new VenueInputError(`No price is known yet for ${instrument.id}: a MARKET smart order with legs needs one`, { instrument: instrument.id });
    }
    if (entryPrice !== undefined) {
      const bound = checkSmartLegBounds({
        side: req.side,
        entryPrice,
        slTriggerPrice: req.stopLoss?.triggerPrice,
        tgtTriggerPrice: req.target?.triggerPrice,
      });
      if (bound) throw new VenueInputError(bound, { entryPrice, side: req.side });
    }
    const isTsl = req.isTsl ?? false;
    const trailing = isTsl && this.settings.tsl === 'on';
    if (trailing) {
      if (type === 'TRIGGER') throw new VenueInputError('is_tsl: trailing stop-loss is not supported for TRIGGER orders', {});
      if (!req.stopLoss) throw new VenueInputError('is_tsl: trailing stop-loss requires a stop-loss leg (sl_trigger_price)', {});
      if (req.tslStepSize === undefined || req.tslStepSize <= 0) {
        throw new VenueInputError('tsl_step_size: required and positive when is_tsl is true', { tslStepSize: req.tslStepSize });
      }
    }
    if (req.tslStepSize !== undefined && trailing) this.checkPrice(instrument, req.tslStepSize, 'tsl_step_size');

    const prefix = instrument.segment === 'EQUITY' ? 'EQ' : 'DRV';
    const common = {
      instrument,
      product: req.product,
      validity: req.validity,
      isAmo: false,
      qty: req.qty,
      remarks,
      algoId: req.algoId ?? '99999',
      isTsl,
      tslStepSize: req.tslStepSize,
      now,
    };
    const entry = this.newOrder({
      ...common,
      prefix,
      side: req.side,
      requestedOrderType: type === 'LIMIT' ? 'LIMIT' : type === 'MARKET' ? 'MARKET' : 'STOP_LOSS',
      limitPrice: type === 'LIMIT' ? req.limitPrice : type === 'TRIGGER' ? req.triggerLimitPrice : undefined,
      triggerPrice: type === 'TRIGGER' ? req.triggerPrice : undefined,
      marketLike: type === 'MARKET' || (type === 'TRIGGER' && req.triggerLimitPrice === undefined),
      leg: 'entry',
    });
    if (type === 'TRIGGER' && req.triggerPrice !== undefined) {
      // A GTT trigger fires when the price reaches it from wherever the market is now.
      const ref = book.ltp;
      entry.triggerDir = ref === undefined ? (req.side === 'BUY' ? 1 : -1) : req.triggerPrice >= ref ? 1 : -1;
    }
    const exitSide: Side = req.side === 'BUY' ? 'SELL' : 'BUY';
    const legOrder = (leg: 'stopLoss' | 'target', prices: { triggerPrice: Paise; limitPrice?: Paise }): OrderState => {
      const o = this.newOrder({
        ...common,
        prefix: 'GTT',
        side: exitSide,
        requestedOrderType: 'STOP_LOSS',
        limitPrice: prices.limitPrice,
        triggerPrice: prices.triggerPrice,
        marketLike: prices.limitPrice === undefined,
        leg,
      });
      // Stop-loss fires on adverse movement, target on favourable (for a BUY entry: below / above).
      const adverseDown = req.side === 'BUY';
      o.triggerDir = leg === 'stopLoss' ? (adverseDown ? -1 : 1) : adverseDown ? 1 : -1;
      o.phase = Phase.DORMANT;
      return o;
    };
    const stopLoss = req.stopLoss ? legOrder('stopLoss', req.stopLoss) : undefined;
    const target = req.target ? legOrder('target', req.target) : undefined;
    const smart: SmartState = {
      orderId: entry.orderId,
      entry,
      stopLoss,
      target,
      status: SmartStatus.CREATED,
      entryType: type,
      trailing,
      isTsl,
      tslStepSize: req.tslStepSize,
      trailRef: undefined,
      createdAt: now,
      expiresAt: now + this.settings.smartOrderTtlDays * DAY_MS,
      remarks,
    };
    for (const o of [entry, stopLoss, target]) if (o) o.smart = smart;
    this.smartMap.set(smart.orderId, smart);
    for (const leg of [stopLoss, target]) {
      if (!leg) continue;
      this.orderMap.set(leg.orderId, leg);
      this.emitOrder(leg, now);
    }
    const reason = this.admit(entry, now);
    for (const leg of [stopLoss, target]) if (leg) this.dayOrders.push(leg);
    if (reason !== undefined) {
      smart.status = SmartStatus.FAILED;
      for (const leg of [stopLoss, target]) if (leg) this.finish(leg, Phase.CANCELLED, `Entry failed: ${reason}`, now);
    }
    this.emitSmart(smart, now);
    this.flush();
    return { orderId: smart.orderId, status: SmartStatus.CREATED, smart: smartSnapshot(smart) };
  }

  /**
   * Modifies one part of a smart order by its own id: the entry (qty, limit, trigger) while it has
   * not filled, or a leg (trigger, limit). While the entry has not filled, leg bounds are checked
   * again against the entry price (spec 3.5); once it has, a leg is checked against the last price.
   */
  modifySmartOrder(orderId: string, changes: ModifySmartOrderRequest): ModifyOrderResult {
    const o = this.mustFind(orderId);
    const smart = o.smart;
    if (!smart) return this.modifyOrder(orderId, changes);
    const now = this.clock.now();
    this.checkModifiable(o);
    const inst = o.instrument;
    for (const [name, v] of [
      ['limit_price', changes.limitPrice],
      ['trigger_price', changes.triggerPrice],
    ] as const) {
      if (v !== undefined) this.checkPrice(inst, v, name);
    }
    if (o.leg === 'entry') {
      if (o.filledQty > 0) throw new VenueOrderError(`Order ${orderId}: the entry has started filling and can no longer be modified`, { orderId });
      const qty = changes.qty ?? o.qty;
      this.checkQty(inst, qty, 'qty');
      const limitPrice = changes.limitPrice ?? o.limitPrice;
      const triggerPrice = changes.triggerPrice ?? o.triggerPrice;
      const entryPrice =
        smart.entryType === 'TRIGGER' ? (limitPrice ?? triggerPrice) : smart.entryType === 'LIMIT' ? limitPrice : this.book(inst).ltp;
      if (entryPrice !== undefined) {
        const bound = checkSmartLegBounds({
          side: o.side,
          entryPrice,
          slTriggerPrice: smart.stopLoss?.triggerPrice,
          tgtTriggerPrice: smart.target?.triggerPrice,
        });
        if (bound) throw new VenueInputError(bound, { entryPrice });
      }
      const refusal = this.circuitRefusal(this.book(inst), limitPrice);
      if (refusal) throw new VenueOrderError(refusal, { orderId });
      this.reblock(o, qty, limitPrice, triggerPrice);
      o.qty = qty;
      o.limitPrice = limitPrice;
      o.triggerPrice = triggerPrice;
      for (const leg of [smart.stopLoss, smart.target]) {
        if (leg && leg.phase === Phase.DORMANT) {
          leg.qty = qty;
          leg.updatedAt = now;
        }
      }
    } else {
      if (changes.qty !== undefined && changes.qty !== o.qty) {
        throw new VenueInputError('qty: a smart-order leg takes its quantity from the entry and cannot be changed', { orderId });
      }
      const triggerPrice = changes.triggerPrice ?? o.triggerPrice;
      if (smart.entry.filledQty > 0) {
        // The entry has filled: the leg protects a position, so it is checked against the market
        // like a regular stop (spec 3.5's entry bound is a placement rule). A trailing stop may then
        // rise above the entry price and lock in profit.
        if (changes.triggerPrice !== undefined) {
          const refusal = this.legMarketRefusal(this.book(inst), o, changes.triggerPrice);
          if (refusal) throw new VenueInputError(refusal, { orderId, lastPrice: this.book(inst).ltp });
        }
      } else {
        const entryPrice = this.smartEntryPriceOf(smart);
        if (entryPrice !== undefined && triggerPrice !== undefined) {
          const bound = checkSmartLegBounds({
            side: smart.entry.side,
            entryPrice,
            ...(o.leg === 'stopLoss' ? { slTriggerPrice: triggerPrice } : { tgtTriggerPrice: triggerPrice }),
          });
          if (bound) throw new VenueInputError(bound, { entryPrice });
        }
      }
      o.triggerPrice = triggerPrice;
      if (changes.limitPrice !== undefined) o.limitPrice = changes.limitPrice;
    }
    if (o.leg === 'entry' && changes.limitPrice !== undefined && o.phase === Phase.WORKING) this.requeue(o);
    o.modifications++;
    o.updatedAt = now;
    this.emitOrder(o, now);
    if (o.leg === 'entry' && this.settings.matchOnArrival && this.sessionOpen && o.phase === Phase.WORKING) {
      this.takeOnArrival(o, now);
      o.fresh = false;
    }
    this.emitSmart(smart, now);
    this.flush();
    return { orderId, venueStatus: VenueStatus.MODIFIED, order: snapshot(o) };
  }

  /**
   * Cancels by id: the parent (entry) id cancels the whole smart order (entry if working, and the
   * legs); a leg id cancels that leg only.
   */
  cancelSmartOrder(orderId: string): CancelOrderResult {
    const o = this.mustFind(orderId);
    const smart = o.smart;
    if (!smart) return this.cancelOrder(orderId);
    const now = this.clock.now();
    if (o.leg === 'entry') {
      if (smart.status === SmartStatus.COMPLETED || smart.status === SmartStatus.CANCELLED || smart.status === SmartStatus.EXPIRED || smart.status === SmartStatus.FAILED) {
        throw new VenueOrderError(`Smart order ${orderId} is ${smart.status} and cannot be cancelled`, { orderId, status: smart.status });
      }
      if (!TERMINAL.has(o.phase)) this.finish(o, Phase.CANCELLED, 'Cancelled by user', now);
      for (const leg of [smart.stopLoss, smart.target]) if (leg && !TERMINAL.has(leg.phase)) this.finish(leg, Phase.CANCELLED, 'Cancelled by user', now);
      smart.status = SmartStatus.CANCELLED;
    } else {
      if (TERMINAL.has(o.phase)) {
        throw new VenueOrderError(`Order ${orderId} is ${venueStatusOf(o)} and cannot be cancelled`, { orderId, status: venueStatusOf(o) });
      }
      this.finish(o, Phase.CANCELLED, 'Cancelled by user', now);
      this.settleSmart(smart, now);
    }
    this.emitSmart(smart, now);
    this.flush();
    const order = snapshot(o);
    return { orderId, venueStatus: order.venueStatus, order };
  }

  // ------------------------------------------------------------------------------------------
  // Sessions

  /**
   * Opens the session at `ts` (default: the clock). On a new IST date the account rolls its day
   * and the order book starts afresh (still-working orders stay). Queued AMO orders start working
   * and take the first price after the open.
   */
  openSession(ts: number = this.clock.now()): void {
    const date = istDate(ts);
    if (this.sessionDate !== undefined && date !== this.sessionDate) {
      this.account.rollDay();
      // The order book is per day (as on the live service): finished orders and smart orders are
      // forgotten, so a long backtest holds only what is still working.
      for (const o of this.dayOrders) if (TERMINAL.has(o.phase) && !(o.smart && this.smartLive(o.smart))) this.orderMap.delete(o.orderId);
      for (const [id, sm] of this.smartMap) if (!this.smartLive(sm)) this.smartMap.delete(id);
      this.dayOrders = this.dayOrders.filter((o) => this.orderMap.has(o.orderId) && !TERMINAL.has(o.phase));
      this.dayTrades = [];
      this.tradesByOrder.clear();
      this.daySettlements = [];
      this.settleExpired(date, ts);
      // Contracts past their expiry leave the book (a paper session running for weeks would
      // otherwise keep every weekly it ever touched); one with a working order stays until it ends.
      for (const [id, book] of this.books) {
        const expiry = book.instrument.expiry;
        if (expiry !== undefined && expiry < date && book.working.length === 0) this.books.delete(id);
      }
    }
    this.sessionDate = date;
    this.sessionOpen = true;
    const amos = this.amoQueue;
    this.amoQueue = [];
    for (const o of amos) {
      if (o.phase !== Phase.QUEUED) continue;
      if (o.instrument.expiry !== undefined && o.instrument.expiry < date) {
        this.finish(o, Phase.EXPIRED, CONTRACT_EXPIRED, ts);
        continue;
      }
      o.phase = o.requestedOrderType === 'STOP_LOSS' ? Phase.TRIGGER : Phase.WORKING;
      o.fresh = true;
      o.updatedAt = ts;
      this.book(o.instrument).working.push(o);
      this.emitOrder(o, ts);
    }
    this.flush();
  }

  /**
   * Closes the session at `ts` (default: the clock): every working DAY order expires (`EXPIRED`,
   * or `PARTIALLY FILLED - EXPIRED`) and its margin is released. Smart orders survive until they
   * are 365 days old. AMO orders placed for the next session stay queued.
   */
  expireSession(ts: number = this.clock.now()): void {
    for (const book of this.books.values()) {
      for (const o of [...book.working]) {
        if (o.smart) continue;
        if (o.validity === 'DAY' || o.validity === 'IOC') this.finish(o, Phase.EXPIRED, 'Order expired at the session close', ts);
      }
    }
    for (const smart of this.smartMap.values()) {
      if (ts < smart.expiresAt) continue;
      if (smart.status !== SmartStatus.CREATED && smart.status !== SmartStatus.ACTIVE) continue;
      for (const o of [smart.entry, smart.stopLoss, smart.target]) {
        if (o && !TERMINAL.has(o.phase)) this.finish(o, Phase.EXPIRED, 'Smart order expired', ts);
      }
      smart.status = SmartStatus.EXPIRED;
      this.emitSmart(smart, ts);
    }
    this.takeExpiryCloses(this.sessionDate ?? istDate(ts));
    this.sessionOpen = false;
    this.flush();
  }

  /** S of every open position's contract expiring on `date` (or before, not yet taken), at this close. */
  private takeExpiryCloses(date: string): void {
    const ask = this.underlyingClose;
    if (!ask) return;
    for (const { instrument } of this.account.derivativePositions()) {
      const expiry = instrument.expiry!;
      // On the expiry date the latest close wins (a session reopened that day closes again).
      if (expiry > date || (expiry < date && this.expiryCloses.has(instrument.id))) continue;
      const s = ask(instrument);
      if (s !== undefined && Number.isFinite(s) && s > 0) this.expiryCloses.set(instrument.id, Math.round(s));
    }
  }

  /**
   * First open of `date`, after the day roll: orders still working in contracts past their expiry
   * expire (no more prices will come for them), and open positions in them are closed at their
   * settlement price, realising P&L and releasing margin.
   */
  private settleExpired(date: string, ts: number): void {
    for (const book of this.books.values()) {
      const expiry = book.instrument.expiry;
      if (expiry === undefined || expiry >= date || book.working.length === 0) continue;
      for (const o of [...book.working]) {
        if (TERMINAL.has(o.phase)) continue;
        const smart = o.smart;
        if (!smart) {
          this.finish(o, Phase.EXPIRED, CONTRACT_EXPIRED, ts);
          continue;
        }
        for (const x of [smart.entry, smart.stopLoss, smart.target]) if (x && !TERMINAL.has(x.phase)) this.finish(x, Phase.EXPIRED, CONTRACT_EXPIRED, ts);
        smart.status = SmartStatus.EXPIRED;
        this.emitSmart(smart, ts);
      }
    }
    for (const { instrument, product } of this.account.derivativePositions()) {
      const expiry = instrument.expiry!;
      if (expiry >= date) continue;
      const s = this.expiryCloses.get(instrument.id);
      const own = this.books.get(instrument.id)?.ltp ?? this.account.position(instrument.id, product)?.lastPrice ?? 0;
      const price = s === undefined ? own : settlementValue(instrument, s);
      const done = this.account.settle(instrument, product, price);
      if (!done) continue;
      this.daySettlements.push({
        instrument: instrument.id,
        securityId: instrument.securityId,
        tradingSymbol: instrument.tradingSymbol,
        product,
        expiry,
        side: done.side,
        qty: done.qty,
        settlementPrice: price,
        ...(s !== undefined ? { underlyingPrice: s } : {}),
        basis: s === undefined ? 'contract-last-price' : 'underlying-close',
        realizedPnl: done.realizedPnl,
        charges: done.charges.brokerage + done.charges.totalCharges,
        ts,
      });
      if (this.listeners.length > 0) this.queue.push({ type: 'position', ts, position: done.position });
    }
    this.expiryCloses.clear();
  }

  // ------------------------------------------------------------------------------------------
  // Market

  /**
   * Feeds one market update: the book is refreshed, then every working order of the instrument
   * that is at least as old as the update is checked in arrival order (trailing, triggers,
   * fills). Returns the quantity filled.
   */
  onMarket(u: MarketUpdate): number {
    const book = this.books.get(u.instrument) ?? this.bookById(u.instrument);
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
    if (this.account.hasPosition(u.instrument)) this.account.markPrice(u.instrument, u.ltp);
    if (!this.sessionOpen || book.working.length === 0) return 0;

    const mode: UpdateMode = u.mode ?? 'tick';
    const budget = { BUY: u.availableQty ?? Infinity, SELL: u.availableQty ?? Infinity };
    let filled = 0;
    for (const o of [...book.working]) {
      if (o.createdAt > u.ts || (o.phase !== Phase.TRIGGER && o.phase !== Phase.WORKING)) continue;
      const wasFresh = o.fresh;
      if (o.phase === Phase.TRIGGER) {
        if (o.smart?.trailing && o.leg === 'stopLoss') this.trail(o, u.ltp, u.ts);
        const p = o.triggerPrice!;
        const fired = o.triggerDir === 1 ? u.ltp >= p : u.ltp <= p;
        if (!fired) continue;
        o.phase = Phase.WORKING;
        o.fresh = true;
        o.updatedAt = u.ts;
        if (o.leg === 'stopLoss' || o.leg === 'target') {
          // An exit leg blocked nothing while it waited; if the position it protects is gone (or a
          // CNC holding was sold meanwhile) it must be fundable as a fresh order, or it fails.
          const r = this.account.reserve(o.orderId, o.instrument, o.side, o.qty - o.filledQty, o.limitPrice ?? u.ltp, o.product);
          if (!r.ok) {
            this.finish(o, Phase.FAILED, r.reason, u.ts);
            this.settleSmart(o.smart!, u.ts);
            this.emitSmart(o.smart!, u.ts);
            continue;
          }
        }
        this.protect(o, book, u.ltp);
        this.emitOrder(o, u.ts);
        if (o.leg === 'entry' && o.smart) this.emitSmart(o.smart, u.ts);
      } else if (o.requestedOrderType === 'MARKET' && o.limitPrice === undefined) {
        this.protect(o, book, u.ltp);
      }
      filled += this.matchOnUpdate(o, book, u, mode, budget);
      if (wasFresh || o.fresh) {
        o.fresh = false;
        if (o.validity === 'IOC' && !TERMINAL.has(o.phase)) this.finish(o, Phase.CANCELLED, 'IOC order: unfilled quantity cancelled', u.ts);
      }
    }
    this.flush();
    return filled;
  }

  // ------------------------------------------------------------------------------------------
  // Internals: admission

  private admit(o: OrderState, now: number): string | undefined {
    this.dayOrders.push(o);
    this.orderMap.set(o.orderId, o);
    const book = this.book(o.instrument);
    if (o.isAmo && this.sessionOpen) return this.refuse(o, now, 'AMO orders are accepted only outside market hours');
    if (!o.isAmo && !this.sessionOpen) return this.refuse(o, now, 'Market is closed: place an after-market order (AMO) instead');
    if (o.requestedOrderType === 'MARKET') {
      if (book.ltp === undefined && this.settings.matchOnArrival && !o.isAmo) return this.refuse(o, now, `No market price is available for ${o.instrument.tradingSymbol}`);
      if (book.ltp !== undefined) this.protect(o, book, book.ltp);
    }
    const circuit = this.circuitRefusal(book, o.limitPrice) ?? this.circuitRefusal(book, o.triggerPrice);
    if (circuit) return this.refuse(o, now, circuit);
    if (o.requestedOrderType === 'STOP_LOSS' && o.leg !== 'entry') {
      const side = this.stopSideRefusal(book, o.side, o.triggerPrice!);
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

  private tradable(id: string): Instrument {
    const i = this.instruments.get(id);
    if (!i) throw new VenueInputError(`security_id: unknown instrument ${id}`, { instrument: id });
    if (i.segment === 'INDEX' || i.kind === 'INDEX') throw new VenueInputError(`security_id: ${id} is an index and cannot be traded`, { instrument: id });
    return i;
  }

  private checkQty(i: Instrument, qty: number, field: string): void {
    if (!Number.isSafeInteger(qty) || qty <= 0) throw new VenueInputError(`${field}: must be a positive whole number, got ${qty}`, { qty });
    if (qty % i.lotSize !== 0) {
      throw new VenueInputError(`${field}: ${qty} is not a multiple of the lot size ${i.lotSize} of ${i.tradingSymbol}`, { qty, lotSize: i.lotSize });
    }
  }

  private checkPrice(i: Instrument, p: Paise, field: string): void {
    if (!Number.isSafeInteger(p) || p <= 0) throw new VenueInputError(`${field}: must be a positive price, got ${formatRupees(p)}`, { price: p });
    if (!isOnTick(p, i.tickSize)) {
      throw new VenueInputError(`${field}: ${formatRupees(p)} is not a multiple of the tick size ${formatRupees(i.tickSize)}`, {
        price: p,
        tickSize: i.tickSize,
      });
    }
  }

  private checkProduct(i: Instrument, product: Product): void {
    const derivative = i.segment !== 'EQUITY';
    if (derivative && product === 'CNC') throw new VenueInputError(`product: CNC is for equity delivery; ${i.tradingSymbol} is a derivative (use MARGIN or INTRADAY)`, {});
    if (!derivative && product === 'MARGIN') throw new VenueInputError(`product: MARGIN is for derivatives; use CNC or INTRADAY for ${i.tradingSymbol}`, {});
  }

  private checkModifiable(o: OrderState): void {
    if (TERMINAL.has(o.phase)) {
      throw new VenueOrderError(`Order ${o.orderId} is ${venueStatusOf(o)} and cannot be modified`, { orderId: o.orderId, status: venueStatusOf(o) });
    }
    if (o.modifications >= this.settings.maxModifications) {
      throw new VenueOrderError(
        `Order ${o.orderId} has reached the maximum of ${this.settings.maxModifications} modifications`,
        { orderId: o.orderId, modifications: o.modifications },
      );
    }
  }

  private circuitRefusal(book: Book, price: Paise | undefined): string | undefined {
    if (price === undefined) return undefined;
    if ((book.upper !== undefined && price > book.upper) || (book.lower !== undefined && price < book.lower)) {
      return `Price ${formatRupees(price)} is outside the circuit limits ${formatRupees(book.lower ?? 0)} - ${formatRupees(book.upper ?? 0)}`;
    }
    return undefined;
  }

  /**
   * A modified leg of a filled smart order, against the last price: the stop-loss must not be
   * already crossed (as for a regular stop order), and the target must still lie ahead.
   */
  private legMarketRefusal(book: Book, leg: OrderState, trigger: Paise): string | undefined {
    if (leg.leg === 'stopLoss') return this.stopSideRefusal(book, leg.side, trigger);
    const ltp = book.ltp;
    if (ltp === undefined) return undefined;
    // The target is a SELL above the market for a long, a BUY below it for a short.
    if (leg.side === 'SELL' && !(trigger > ltp)) return `Target trigger price for a SELL order should be greater than the last traded price ${formatRupees(ltp)}`;
    if (leg.side === 'BUY' && !(trigger < ltp)) return `Target trigger price for a BUY order should be less than the last traded price ${formatRupees(ltp)}`;
    return undefined;
  }

  private stopSideRefusal(book: Book, side: Side, trigger: Paise): string | undefined {
    const ltp = book.ltp;
    if (ltp === undefined) return undefined;
    if (side === 'BUY' && !(trigger > ltp)) return `Trigger price for a BUY stop-loss order should be greater than the last traded price ${formatRupees(ltp)}`;
    if (side === 'SELL' && !(trigger < ltp)) return `Trigger price for a SELL stop-loss order should be less than the last traded price ${formatRupees(ltp)}`;
    return undefined;
  }

  /** Re-blocks margin for a modification; throws (order unchanged) when it cannot be funded. */
  private reblock(o: OrderState, qty: number, limitPrice: Paise | undefined, triggerPrice: Paise | undefined): void {
    if (o.phase === Phase.DORMANT) return;
    const price = limitPrice ?? triggerPrice ?? this.book(o.instrument).ltp;
    if (price === undefined) return;
    const r = this.account.reserve(o.orderId, o.instrument, o.side, qty - o.filledQty, price, o.product);
    if (!r.ok) throw new VenueOrderError(r.reason, { orderId: o.orderId });
  }

  /** Sets a MARKET (or stop-market) order's protection price from `ref`. */
  private protect(o: OrderState, book: Book, ref: Paise): void {
    if (!o.marketLike) return;
    if (o.requestedOrderType !== 'MARKET' && o.phase !== Phase.WORKING) return;
    const pct = this.settings.marketProtectionPct / 100;
    const tick = o.instrument.tickSize;
    let p = o.side === 'BUY' ? roundToTick(ref * (1 + pct), tick, 'down') : roundToTick(ref * (1 - pct), tick, 'up');
    if (book.upper !== undefined && p > book.upper) p = book.upper;
    if (book.lower !== undefined && p < book.lower) p = book.lower;
    if (p <= 0) p = tick;
    o.limitPrice = p;
  }

  // ------------------------------------------------------------------------------------------
  // Internals: matching

  /** An arrival in matchOnArrival mode takes the current book, level by level, up to its limit. */
  private takeOnArrival(o: OrderState, ts: number): void {
    const book = this.book(o.instrument);
    if (book.ltp === undefined) return;
    const levels = this.takerLevels(book, o.side, true);
    const fills = this.walk(book, o, levels, Infinity, true);
    this.applyFills(o, fills, ts);
  }

  private matchOnUpdate(o: OrderState, book: Book, u: MarketUpdate, mode: UpdateMode, budget: { BUY: number; SELL: number }): number {
    const side = o.side;
    const limit = o.limitPrice;
    const taker = o.fresh;
    let fills: Fill[];
    if (mode === 'tick') {
      if (taker) {
        fills = this.walk(book, o, this.takerLevels(book, side, false), budget[side], true);
      } else {
        // A resting order is hit at its own price by whatever crosses it.
        const crossing = this.walk(book, o, this.takerLevels(book, side, false), budget[side], false);
        const qty = crossing.reduce((s, f) => s + f.qty, 0);
        fills = qty > 0 && limit !== undefined ? [{ price: limit, qty }] : [];
      }
    } else {
      let price: Paise;
      if (mode === 'open') price = u.ltp;
      else if (taker && o.triggerPrice !== undefined && o.marketLike) price = o.triggerPrice;
      else if (taker) price = u.ltp;
      else price = limit ?? u.ltp;
      if (!taker && limit !== undefined) {
        const crosses = side === 'BUY' ? u.ltp <= limit : u.ltp >= limit;
        if (!crosses) return 0;
      }
      if (taker && o.triggerPrice !== undefined && !o.marketLike && mode === 'path' && limit !== undefined) {
        // A stop-limit triggered mid-path trades at the trigger when that is within its limit.
        price = side === 'BUY' ? Math.min(o.triggerPrice, limit) : Math.max(o.triggerPrice, limit);
      }
      price = this.slip(o, price);
      if (limit !== undefined && (side === 'BUY' ? price > limit : price < limit)) return 0;
      const qty = Math.min(o.qty - o.filledQty, budget[side]);
      fills = qty > 0 ? [{ price, qty }] : [];
    }
    let total = 0;
    for (const f of fills) total += f.qty;
    budget[side] -= total;
    this.applyFills(o, fills, u.ts);
    return total;
  }

  /** Opposite-side levels an order can take: the update's depth, the depth provider, top of book, or ltp. */
  private takerLevels(book: Book, side: Side, arrival: boolean): readonly BookLevel[] {
    const depth = book.depth ?? (arrival && this.depthProvider ? this.depthProvider(book.instrument.id) : undefined);
    if (depth) {
      const lv = side === 'BUY' ? depth.asks : depth.bids;
      if (lv.length > 0) return lv;
    }
    const top = side === 'BUY' ? book.ask : book.bid;
    if (top !== undefined) return [{ price: top, qty: (side === 'BUY' ? book.askQty : book.bidQty) ?? Infinity }];
    return book.ltp === undefined ? [] : [{ price: book.ltp, qty: Infinity }];
  }

  /**
   * Walks levels within the order's limit, consuming them (so two arrivals between updates do not
   * both take the same quantity). `priced` false: only measures the crossing quantity.
   */
  private walk(book: Book, o: OrderState, levels: readonly BookLevel[], cap: number, priced: boolean): Fill[] {
    const fills: Fill[] = [];
    let want = Math.min(o.qty - o.filledQty, cap);
    const limit = o.limitPrice;
    const taken = o.side === 'BUY' ? book.takenAsk : book.takenBid;
    for (const lv of levels) {
      if (want <= 0) break;
      if (limit !== undefined && (o.side === 'BUY' ? lv.price > limit : lv.price < limit)) break;
      const free = lv.qty - (taken.get(lv.price) ?? 0);
      if (free <= 0) continue;
      const q = Math.min(want, free);
      taken.set(lv.price, (taken.get(lv.price) ?? 0) + q);
      want -= q;
      let price = lv.price;
      if (priced) {
        price = this.slip(o, price);
        if (limit !== undefined && (o.side === 'BUY' ? price > limit : price < limit)) price = limit;
      }
      const last = fills[fills.length - 1];
      if (last && last.price === price) fills[fills.length - 1] = { price, qty: last.qty + q };
      else fills.push({ price, qty: q });
    }
    return fills;
  }

  private slip(o: OrderState, price: Paise): Paise {
    const n = this.settings.slippageTicks;
    if (n === 0 || !o.marketLike) return price;
    const d = n * o.instrument.tickSize;
    return o.side === 'BUY' ? price + d : Math.max(o.instrument.tickSize, price - d);
  }

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
      if (o.smart) this.onSmartFill(o, ts);
    }
  }

  private rereserveRemainder(o: OrderState): void {
    const price = o.limitPrice ?? o.triggerPrice ?? this.book(o.instrument).ltp;
    if (price === undefined) return;
    this.account.reserve(o.orderId, o.instrument, o.side, o.qty - o.filledQty, price, o.product, true);
  }

  // ------------------------------------------------------------------------------------------
  // Internals: smart orders

  private onSmartFill(o: OrderState, ts: number): void {
    const smart = o.smart!;
    if (o.leg === 'entry') {
      if (o.phase === Phase.FILLED) this.armLegs(smart, ts);
      return;
    }
    // OCO: the sibling covers only what this leg has not closed yet; once this leg is done it goes.
    const sibling = o.leg === 'stopLoss' ? smart.target : smart.stopLoss;
    if (sibling && !TERMINAL.has(sibling.phase)) {
      const left = o.qty - o.filledQty;
      if (left <= 0) this.finish(sibling, Phase.CANCELLED, `OCO: ${o.leg === 'stopLoss' ? 'stop-loss' : 'target'} leg ${o.orderId} filled`, ts);
      else {
        sibling.qty = sibling.filledQty + left;
        sibling.updatedAt = ts;
        this.emitOrder(sibling, ts);
      }
    }
    this.settleSmart(smart, ts);
    this.emitSmart(smart, ts);
  }

  /** The entry is done (filled, or finished with a partial fill): legs go live for the filled quantity. */
  private armLegs(smart: SmartState, ts: number): void {
    const entry = smart.entry;
    const legs = [smart.stopLoss, smart.target].filter((l): l is OrderState => l !== undefined && l.phase === Phase.DORMANT);
    if (entry.filledQty === 0) {
      for (const l of legs) this.finish(l, Phase.CANCELLED, 'Entry not filled', ts);
      this.settleSmart(smart, ts);
      this.emitSmart(smart, ts);
      return;
    }
    smart.trailRef = Math.round(entry.filledValue / entry.filledQty);
    for (const l of legs) {
      l.qty = entry.filledQty;
      l.phase = Phase.TRIGGER;
      l.fresh = false;
      l.updatedAt = ts;
      this.book(l.instrument).working.push(l);
      this.emitOrder(l, ts);
    }
    smart.status = legs.length > 0 ? SmartStatus.ACTIVE : SmartStatus.COMPLETED;
    this.emitSmart(smart, ts);
  }

  /** Smart status from its parts once something finished. */
  private settleSmart(smart: SmartState, _ts: number): void {
    if (smart.status !== SmartStatus.ACTIVE && smart.status !== SmartStatus.CREATED) return;
    const legs = [smart.stopLoss, smart.target].filter((l): l is OrderState => l !== undefined);
    if (!TERMINAL.has(smart.entry.phase)) return;
    if (legs.some((l) => !TERMINAL.has(l.phase))) return;
    if (legs.some((l) => l.phase === Phase.FILLED) || (legs.length === 0 && smart.entry.phase === Phase.FILLED)) smart.status = SmartStatus.COMPLETED;
    else if (smart.entry.phase === Phase.EXPIRED) smart.status = SmartStatus.EXPIRED;
    else smart.status = SmartStatus.CANCELLED;
  }

  /** Trailing stop-loss (spec 3.4): the trigger follows favourable movement in whole steps and holds when price turns. */
  private trail(o: OrderState, ltp: Paise, ts: number): void {
    const smart = o.smart!;
    const step = smart.tslStepSize;
    if (step === undefined || step <= 0 || smart.trailRef === undefined) return;
    const long = smart.entry.side === 'BUY';
    const gain = long ? ltp - smart.trailRef : smart.trailRef - ltp;
    if (gain < step) return;
    const move = Math.floor(gain / step) * step;
    const d = long ? move : -move;
    smart.trailRef += d;
    o.triggerPrice = o.triggerPrice! + d;
    if (o.limitPrice !== undefined) o.limitPrice += d;
    o.updatedAt = ts;
    this.emitOrder(o, ts);
  }

  private smartEntryPriceOf(smart: SmartState): Paise | undefined {
    const e = smart.entry;
    if (smart.entryType === 'LIMIT') return e.limitPrice;
    if (smart.entryType === 'TRIGGER') return e.limitPrice ?? e.triggerPrice;
    return e.filledQty > 0 ? Math.round(e.filledValue / e.filledQty) : this.book(e.instrument).ltp;
  }

  // ------------------------------------------------------------------------------------------
  // Internals: bookkeeping

  private finish(o: OrderState, phase: Phase, reason: string, ts: number): void {
    o.phase = phase;
    o.fresh = false;
    o.extraInfo = reason;
    o.updatedAt = ts;
    this.account.release(o.orderId);
    this.unwork(o);
    if (o.isAmo) this.amoQueue = this.amoQueue.filter((x) => x !== o);
    this.emitOrder(o, ts);
    const smart = o.smart;
    if (smart && o.leg === 'entry' && (phase === Phase.CANCELLED || phase === Phase.EXPIRED) && smart.status === SmartStatus.CREATED) {
      // An entry that ends part-filled still protects what it bought.
      if (o.filledQty > 0) this.armLegs(smart, ts);
      else {
        for (const l of [smart.stopLoss, smart.target]) if (l && l.phase === Phase.DORMANT) this.finish(l, Phase.CANCELLED, 'Entry not filled', ts);
        this.settleSmart(smart, ts);
      }
    }
  }

  private smartLive(s: SmartState): boolean {
    return s.status === SmartStatus.CREATED || s.status === SmartStatus.ACTIVE;
  }

  /** Moves a working order to the back of its book as a fresh arrival. */
  private requeue(o: OrderState): void {
    this.unwork(o);
    o.fresh = true;
    this.book(o.instrument).working.push(o);
  }

  private unwork(o: OrderState): void {
    const book = this.books.get(o.instrument.id);
    if (!book) return;
    const i = book.working.indexOf(o);
    if (i >= 0) book.working.splice(i, 1);
  }

  private newOrder(a: {
    prefix: 'EQ' | 'DRV' | 'GTT';
    instrument: Instrument;
    side: Side;
    product: Product;
    requestedOrderType: OrderType;
    validity: Validity;
    isAmo: boolean;
    qty: number;
    limitPrice: Paise | undefined;
    triggerPrice: Paise | undefined;
    marketLike: boolean;
    remarks: string;
    algoId: string;
    isTsl: boolean;
    tslStepSize: Paise | undefined;
    now: number;
    leg: SmartLeg | undefined;
  }): OrderState {
    const n = ++this.seq;
    const num = this.settings.idBase + n;
    return {
      seq: n,
      orderId: `${a.prefix}-${num}`,
      exchOrderId: String(1_100_000_000_000_000 + num),
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
      smart: undefined,
      leg: a.leg,
    };
  }

  private mustFind(orderId: string): OrderState {
    const o = this.orderMap.get(orderId);
    if (!o) throw new VenueNotFoundError(`order_id: no order ${orderId}`, { orderId });
    return o;
  }

  private book(i: Instrument): Book {
    let b = this.books.get(i.id);
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

  private bookById(id: string): Book {
    const i = this.instruments.get(id);
    if (!i) throw new VenueInputError(`market update for unknown instrument ${id}`, { instrument: id });
    return this.book(i);
  }

  private emitOrder(o: OrderState, ts: number): void {
    if (this.listeners.length > 0) this.queue.push({ type: 'order', ts, order: snapshot(o) });
  }

  private emitSmart(s: SmartState, ts: number): void {
    if (this.listeners.length > 0) this.queue.push({ type: 'smart', ts, smart: smartSnapshot(s) });
  }

  /**
   * Delivers queued events. Every event reaches every listener even if one throws (the state change
   * has happened; hiding it from the others would lose it); the first error is rethrown afterwards.
   */
  private flush(): void {
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

// ---------------------------------------------------------------------------------------------

const SIDES: readonly string[] = ['BUY', 'SELL'];
const ORDER_TYPES: readonly string[] = ['LIMIT', 'MARKET', 'STOP_LOSS'];
const SMART_TYPES: readonly string[] = ['LIMIT', 'MARKET', 'TRIGGER'];
const VALIDITIES: readonly string[] = ['DAY', 'IOC'];
const PRODUCTS: readonly string[] = ['CNC', 'INTRADAY', 'MARGIN'];

/** Guards the string unions at run time: the server may hand over whatever the wire carried. */
function checkOneOf(field: string, value: unknown, allowed: readonly string[]): void {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw new VenueInputError(`${field}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`, { field, value });
  }
}

const CONTRACT_EXPIRED = 'Contract expired';

/** Settlement price per unit off the underlying's S: a future at S, an option at its intrinsic value. */
function settlementValue(i: Instrument, s: Paise): Paise {
  const k = i.strike;
  if (k === undefined || (i.optionType !== 'CE' && i.optionType !== 'PE')) return s;
  return Math.max(0, i.optionType === 'CE' ? s - k : k - s);
}
