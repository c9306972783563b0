/**
 * Execution routing: turns approved intents into venue calls and handles the write outcomes. Its
 * collaborators each do one job: reconciler.ts (resync, the lost-answer lookups, the daily
 * reconcile, the position check, expiry settlement), funds.ts, smart-emulation.ts, fill-gaps.ts,
 * order-journal.ts and tags.ts.
 *
 * - Every order carries our client tag (the intent id) in `remarks`; its record exists in the
 *   order state machine (PENDING_NEW) before the write leaves, and for asynchronous (network)
 *   venues the tag is journaled (order-journal.ts) before the write, so a crash in between can
 *   always be reconciled by tag. In-process venues need no journal.
 * - Write outcomes: `accepted` links the venue id; `rejected` ends the order (and publishes a
 *   `denied` event with VENUE_REJECTED); `unknown` (timeout, lost ack, a thrown error) is never
 *   retried blindly: lost-answers.ts settles it by tag from the order book, and sends it once more
 *   (through this router) only when the book proves it never arrived.
 * - Modifications are counted per order and persisted (`mods`) before the write. From the risk
 *   config's `replaceAt` on, a modify becomes cancel-and-replace: the old order is cancelled, and
 *   only once it is final the replacement (remaining quantity, new prices, new tag, `replaces` =
 *   old tag) is placed — never two live orders for one intent.
 * - A modify or cancel for an order the venue has not acknowledged yet is held and sent the moment
 *   its id is known (later changes fold into the held one; a cancel supersedes a held change).
 * - With `autoSlice`, an F&O order above the freeze quantity is placed in slices, reported as the
 *   one order asked for (auto-slice.ts).
 * - Smart orders go to the venue's smart-order calls when it has them; otherwise they are emulated
 *   (smart-emulation.ts). Trailing stops the venue ignores are trailed by trailing-stops.ts.
 * - The order path is allocation-light and closure-free (a switch per venue call, listener objects
 *   on the bus): it runs for every order of a backtest.
 *
 * Over 500 lines on purpose: what is left is one job, the write path of the five intent kinds and
 * the held changes around it (modify/cancel before the ack, cancel-and-replace), which read as one
 * sequence; split further they would call back into each other through more interfaces on the hot
 * path.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import { DenialCode, type FillEvent, type OrderEvent, type OrderSnapshot } from '../../core/events.js';
import { oppositeSide, isTerminalStatus, type OrderType, type Product } from '../../core/enums.js';
import { describeError } from '../../core/errors.js';
import type { CancelIntent, ExitIntent, Intent, ModifyIntent, PlaceIntent, SmartIntent, SmartLegName } from '../../core/intents.js';
import type { Logger } from '../../core/log.js';
import { silentLogger } from '../../core/silent-log.js';
import type { Paise } from '../../core/money.js';
import type { Store } from '../../core/store.js';
import type { ExecutionConfig } from './config.js';
import { FillGaps } from './fill-gaps.js';
import { Funds, type MarginOf } from './funds.js';
import { writeJournalEntry, writeModifications } from './order-journal.js';
import type { OrderStateMachine } from './order-state-machine.js';
import type { Portfolio } from './portfolio.js';
import { Reconciler, type DayReconcileResult, type HeldChanges, type PositionDiff } from './reconciler.js';
import { LostAnswers, type LostAnswerRouter, type LostWrite } from './lost-answers.js';
import { invokeVenue, type PlaceCall, type VenueCall } from './venue-call.js';
import { SmartEmulation, type LegRouter } from './smart-emulation.js';
import { legTag } from './tags.js';
import { isPromiseLike, trailingModeOf, type ExecutionVenue, type VenueOrderRequest, type VenueResult, type VenueUpdate, type WriteOutcome } from './venue.js';
import type { Mutable } from './mutable.js';
import { WriteTracker } from './write-tracker.js';
import { BrokerSquareOffs } from './broker-square-off.js';
import { isBrokerSquareOff } from '../../risk/rules/square-off.js';
import type { InstrumentLookup } from '../../core/instruments.js';
import { AutoSlicer, type SliceRouter } from './auto-slice.js';
import type { NewOrder } from './order-record.js';

export type { DayReconcileResult } from './reconciler.js';

export interface ExecutionEngineOptions {
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly venue: ExecutionVenue;
  readonly orders: OrderStateMachine;
  readonly portfolio: Portfolio;
  readonly config: ExecutionConfig;
  /** From the risk config: the venue's cap and where replacement starts. */
  readonly maxModifications: number;
  readonly replaceAt: number;
  /** Mints a fresh client tag (for replacements, exits over several products, emulated legs), for the strategy when given. */
  readonly newTag: (strategyId?: string) => string;
  /** Margin an order blocks (the risk engine's model), for the local funds reservation. */
  readonly marginOf?: MarginOf;
  readonly store?: Store;
  readonly log?: Logger;
  /** Lot sizes and underlyings, for auto-slicing (`config.autoSlice`; without them nothing is sliced). */
  readonly instruments?: InstrumentLookup;
}

interface PendingReplace {
  readonly strategyId: string;
  readonly qty: number;
  readonly limitPrice: Paise | undefined;
  readonly triggerPrice: Paise | undefined;
  readonly newTag: string;
}

export class ExecutionEngine implements HeldChanges, LegRouter, LostAnswerRouter, SliceRouter {
  private readonly clock: Clock;
  private readonly bus: EventBus;
  private readonly venue: ExecutionVenue;
  private readonly orders: OrderStateMachine;
  private readonly portfolio: Portfolio;
  private readonly cfg: ExecutionConfig;
  private readonly store: Store | undefined;
  private readonly log: Logger;
  private readonly newTag: (strategyId?: string) => string;
  private readonly replaceAt: number;
  private readonly pendingCancel = new Set<string>();
  private readonly pendingModify = new Map<string, ModifyIntent>();
  private readonly pendingReplace = new Map<string, PendingReplace>();
  /** Smart orders the venue carries natively (their changes go to the smart-order calls). */
  private readonly smartTags = new Set<string>();
  private readonly tracker = new WriteTracker();
  private readonly funds: Funds;
  private readonly gaps: FillGaps;
  private readonly emulation: SmartEmulation;
  private readonly reconciler: Reconciler;
  private readonly lostAnswers: LostAnswers;
  private readonly squareOffs: BrokerSquareOffs;
  private readonly slicer: AutoSlicer | undefined;

  constructor(options: ExecutionEngineOptions) {
    this.clock = options.clock;
    this.bus = options.bus;
    this.venue = options.venue;
    this.orders = options.orders;
    this.portfolio = options.portfolio;
    this.cfg = options.config;
    this.store = options.store;
    this.log = options.log ?? silentLogger();
    this.newTag = options.newTag;
    this.funds = new Funds(this.clock, this.venue, this.portfolio, this.cfg, options.marginOf ?? ((_i, _s, qty, price) => qty * price), this.log);
    this.gaps = new FillGaps(this.clock, this.venue, this.orders, this.cfg, this.funds, this.tracker, this.log);
    this.emulation = new SmartEmulation(this.orders, this);
    this.squareOffs = new BrokerSquareOffs(this.clock, this.bus, this.portfolio, this.log);
    this.reconciler = new Reconciler({
      clock: this.clock, bus: this.bus, venue: this.venue, orders: this.orders, portfolio: this.portfolio,
      funds: this.funds, gaps: this.gaps, tracker: this.tracker, held: this, store: this.store, log: this.log, squareOffs: this.squareOffs,
    });
    const policy = { delaysMs: this.cfg.reconcileDelaysMs, resendOnce: this.cfg.resendLostWrites, resendWithinMs: this.cfg.resendWithinMs };
    this.lostAnswers = new LostAnswers({ clock: this.clock, bus: this.bus, venue: this.venue, orders: this.orders, policy, tracker: this.tracker, router: this, log: this.log });
    this.replaceAt = Math.min(options.replaceAt, options.maxModifications, options.venue.capabilities.maxModifications);
    this.slicer = options.instruments ? new AutoSlicer(this.clock, this.bus, this.orders, options.instruments, this, this.replaceAt, this.log) : undefined;
    // Cancel-and-replace fires when the order being replaced reaches a final state; fills and
    // final states move the order's funds reservation (funds.ts).
    this.bus.on('order', this);
    this.bus.on('fill', this);
  }

  /** Bus delivery of order and fill events (the engine is a listener object: see BusListener). */
  onBusEvent(e: OrderEvent | FillEvent): void {
    if (e.type === 'fill') this.funds.onFill(e.tag, e.qty, e.price);
    else this.onOrderEvent(e.order);
  }

  /** Funds available for new orders: the venue's last figure less what we placed since. */
  availableFunds(): Paise | undefined {
    // In-process venues answer at once: read them lazily, when risk asks, not on every fill.
    return this.funds.available();
  }

  /**
   * Carries out an approved intent. Never throws: venue outcomes arrive as events, and an intent
   * this layer cannot carry out (an id another order already holds, say) is denied in its name,
   * so the strategy always hears of it.
   */
  execute(intent: Intent): void {
    if ((intent.kind === 'place' || intent.kind === 'smart') && this.orders.getExact(intent.id)) {
      this.deny(intent, DenialCode.EXECUTION_ERROR, `order id ${intent.id} is already in use by another order; not placed`);
      return;
    }
    try {
      this.dispatch(intent);
    } catch (err) {
      this.log.error({ err, intent: intent.id }, 'execution: an intent could not be carried out');
      this.deny(intent, DenialCode.EXECUTION_ERROR, `not carried out: ${describeError(err)}`);
    }
  }

  private dispatch(intent: Intent): void {
    switch (intent.kind) {
      case 'place':
        return this.place(intent, undefined, undefined, this.cfg.autoSlice);
      case 'modify':
        return this.modify(intent);
      case 'cancel':
        return this.cancel(intent);
      case 'smart':
        return this.smart(intent);
      case 'exit':
        return this.exit(intent);
    }
  }

  /** Merges one venue update (the engine subscribes this to `venue.updates`). */
  onVenueUpdate(u: VenueUpdate): void {
    switch (u.kind) {
      case 'order':
        // The broker's square-off orders are not ours: their fills are booked (below), their states not tracked.
        if (isBrokerSquareOff(u.order.tag)) return;
        this.orders.applyState(u.order);
        if (this.orders.hasFillGaps()) this.gaps.onGap();
        return;
      case 'fill':
        if (isBrokerSquareOff(u.fill.tag)) return this.squareOffs.onFill(u.fill);
        this.orders.applyFill(u.fill, u.order);
        this.gaps.afterFill();
        // As after an `order` update: the state that came with the fill may report fills not booked yet.
        if (u.order !== undefined && this.orders.hasFillGaps()) this.gaps.onGap();
        return;
      case 'position':
        // The portfolio is built from fills; venue positions are for reconciliation, except a
        // contract the exchange settled at expiry (no fill of ours closes it).
        this.reconciler.settleExpired(u.position);
        return;
      case 'connection':
        this.bus.publish({ type: 'lifecycle', ts: u.ts, phase: u.connected ? 'connected' : 'disconnected', source: `venue:${this.venue.name}`, ...(u.detail ? { detail: u.detail } : {}), ...(u.cause ? { cause: u.cause } : {}) });
        // Frames flowing again after a stall come on a connection that was already resynced at its open.
        if (u.connected && u.cause !== 'flowing') void this.reconciler.resync('reconnected');
        return;
    }
  }

  /**
   * Reads the order book and trades and merges them: at start (after a restart) and after every
   * reconnect (see reconciler.ts).
   */
  resync(reason: string): Promise<boolean> {
    return this.reconciler.resync(reason);
  }

  /** Hands each position check's differences (after every resync) to `fn` (the engine's mismatch incidents). */
  onPositionCheck(fn: (diffs: readonly PositionDiff[]) => void): void {
    this.reconciler.onPositionCheck = fn;
  }

  /** The daily reconcile (see reconciler.ts): a daemon calls it after the session end. */
  reconcileDay(options: { readonly readBook?: boolean } = {}): Promise<DayReconcileResult> {
    return this.reconciler.reconcileDay(options);
  }

  /** Whether the router holds a change for this exact tag (a held modify or cancel, a pending replacement). */
  isHeld(tag: string): boolean {
    return this.pendingCancel.has(tag) || this.pendingModify.has(tag) || this.pendingReplace.has(tag);
  }

  /** A held cancel for this exact tag (the emulation's OCO does not cancel twice). */
  isCancelHeld(tag: string): boolean {
    return this.pendingCancel.has(tag);
  }

  /** Resolves when no write is waiting for its answer. */
  idle(): Promise<void> {
    return this.tracker.idle();
  }

  /** Cancels every working order (all strategies, or one), smart legs included. */
  cancelAll(strategyId?: string): void {
    this.cancelWorking(this.orders.openOrders(strategyId));
  }

  /**
   * Cancels working orders. A smart leg whose parent is cancelled here too goes with it (cancelling
   * the parent's id cancels its legs); a leg whose parent is no longer working (the entry filled)
   * is cancelled by its own id: smart orders outlive the session, and a forgotten leg would fire
   * on a later day and open a position nobody asked for.
   */
  private cancelWorking(open: readonly OrderSnapshot[], intent?: Intent): void {
    const parents = new Set<string>();
    for (const o of open) if (this.smartTags.has(o.tag)) parents.add(o.tag);
    for (const o of open) {
      if (o.leg && o.leg !== 'entry' && o.parentTag && parents.has(o.parentTag)) continue;
      this.cancelOrder(o, intent);
    }
  }

  /**
   * Flattens every account position at market (kill switch, shutdown). Each strategy's position is
   * closed by an order in that strategy's name, so every strategy's book ends flat too; what no
   * strategy owns (adopted orders, manual trades) is closed in `owner`'s name.
   */
  flattenAll(owner = 'risk'): void {
    this.cancelAll();
    const attributed = new Map<string, number>();
    const close = (strategyId: string, instrument: string, product: Product, netQty: number): void => {
      if (netQty === 0) return;
      this.place({ kind: 'place', id: this.newTag(strategyId), strategyId, instrument, side: netQty > 0 ? 'SELL' : 'BUY', qty: Math.abs(netQty), orderType: 'MARKET', validity: 'DAY', product }, undefined, undefined, true);
    };
    for (const sid of this.portfolio.strategyIds()) {
      for (const p of this.portfolio.positions(sid)) {
        const k = `${p.instrument}|${p.product}`;
        attributed.set(k, (attributed.get(k) ?? 0) + p.netQty);
        close(sid, p.instrument, p.product, p.netQty);
      }
    }
    for (const p of this.portfolio.positions()) close(owner, p.instrument, p.product, p.netQty - (attributed.get(`${p.instrument}|${p.product}`) ?? 0));
  }

  close(): void {
    this.gaps.close();
    this.funds.close();
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * `slice`: place an F&O order above the freeze quantity in slices (auto-slice.ts): strategy
   * orders with `autoSlice`, and always the engine's own exits and flattens (an exit must go
   * through; the broker's own square-off slices too).
   */
  private place(i: PlaceIntent, replaces?: string, sliceOf?: string, slice = false): void {
    if (slice && this.slicer && this.slicer.place(i)) return;
    const rec: Mutable<NewOrder> = {
      tag: i.id, strategyId: i.strategyId, instrument: i.instrument, side: i.side, qty: i.qty, orderType: i.orderType,
      product: i.product, validity: i.validity, limitPrice: i.limitPrice, triggerPrice: i.triggerPrice, parentTag: undefined, leg: undefined, replaces,
    };
    if (sliceOf !== undefined) rec.sliceOf = sliceOf;
    this.orders.create(rec);
    if (this.funds.known()) this.funds.reserve(i.id, i.instrument, i.side, i.qty, i.limitPrice ?? i.triggerPrice ?? this.portfolio.lastPrice(i.instrument), i.product);
    // Field by field, no conditional spreads: this runs for every order of a backtest.
    const req: Mutable<VenueOrderRequest> = { tag: i.id, instrument: i.instrument, side: i.side, qty: i.qty, orderType: i.orderType, validity: i.validity, product: i.product, isAmo: i.isAmo ?? false };
    if (i.limitPrice !== undefined) req.limitPrice = i.limitPrice;
    if (i.triggerPrice !== undefined) req.triggerPrice = i.triggerPrice;
    this.write(i.id, i, { op: 'place', req }, undefined);
  }

  private smart(i: SmartIntent): void {
    const legSide = oppositeSide(i.side);
    const entryType: OrderType = i.entryType === 'TRIGGER' ? 'STOP_LOSS' : i.entryType;
    const entryLimit = i.entryType === 'TRIGGER' ? i.triggerLimitPrice : i.limitPrice;
    const entryTrigger = i.entryType === 'TRIGGER' ? i.triggerPrice : undefined;
    const base = { strategyId: i.strategyId, instrument: i.instrument, qty: i.qty, product: i.product, validity: i.validity };
    if (!this.venue.capabilities.smartOrders) {
      // Emulated: a plain entry now, the OCO legs once it fills.
      this.emulation.track(i);
      this.place({ kind: 'place', id: i.id, strategyId: i.strategyId, instrument: i.instrument, side: i.side, qty: i.qty, orderType: entryType, validity: i.validity, product: i.product, ...(entryLimit !== undefined ? { limitPrice: entryLimit } : {}), ...(entryTrigger !== undefined ? { triggerPrice: entryTrigger } : {}) });
      return;
    }
    this.smartTags.add(i.id);
    this.orders.create({ ...base, tag: i.id, side: i.side, orderType: entryType, limitPrice: entryLimit, triggerPrice: entryTrigger, leg: 'entry' });
    if (i.stopLoss) this.orders.create({ ...base, tag: legTag(i.id, 'stopLoss'), side: legSide, orderType: 'STOP_LOSS', triggerPrice: i.stopLoss.triggerPrice, limitPrice: i.stopLoss.limitPrice, parentTag: i.id, leg: 'stopLoss' });
    if (i.target) this.orders.create({ ...base, tag: legTag(i.id, 'target'), side: legSide, orderType: 'LIMIT', triggerPrice: i.target.triggerPrice, limitPrice: i.target.limitPrice ?? i.target.triggerPrice, parentTag: i.id, leg: 'target' });
    this.funds.reserve(i.id, i.instrument, i.side, i.qty, entryLimit ?? entryTrigger ?? this.portfolio.lastPrice(i.instrument), i.product);
    const native = trailingModeOf(this.venue.capabilities) === 'venue' && i.trailingStep !== undefined;
    const req = {
      tag: i.id, instrument: i.instrument, side: i.side, qty: i.qty, entryType: i.entryType, validity: i.validity, product: i.product,
      ...(i.limitPrice !== undefined ? { limitPrice: i.limitPrice } : {}),
      ...(i.triggerPrice !== undefined ? { triggerPrice: i.triggerPrice } : {}),
      ...(i.triggerLimitPrice !== undefined ? { triggerLimitPrice: i.triggerLimitPrice } : {}),
      ...(i.stopLoss ? { stopLoss: i.stopLoss } : {}),
      ...(i.target ? { target: i.target } : {}),
      ...(native ? { trailingStep: i.trailingStep } : {}),
    };
    this.write(i.id, i, { op: 'placeSmart', req }, undefined);
  }

  private modify(i: ModifyIntent): void {
    const target = this.resolveTarget(i.target, i.leg);
    if (!target) return this.deny(i, DenialCode.UNKNOWN_ORDER, `no working order ${i.target}${i.leg ? ` (${i.leg})` : ''}`);
    if (isTerminalStatus(target.status)) return this.deny(i, DenialCode.UNKNOWN_ORDER, `order ${target.tag} is already ${target.status}`);
    if (target.slices !== undefined) return this.slicer?.modify(i);
    if (!target.orderId) {
      // Not acknowledged yet: hold the change (later ones fold in) and send it once the id is known.
      const held = this.pendingModify.get(target.tag);
      this.pendingModify.set(target.tag, held ? Object.assign({}, held, i) : i);
      return;
    }
    const change = {
      ...(i.qty !== undefined ? { qty: i.qty } : {}),
      ...(i.limitPrice !== undefined ? { limitPrice: i.limitPrice } : {}),
      ...(i.triggerPrice !== undefined ? { triggerPrice: i.triggerPrice } : {}),
    };
    if (target.modifications >= this.replaceAt) {
      if (target.leg && target.leg !== 'entry' && target.parentTag && this.smartTags.has(target.parentTag)) {
        return this.deny(i, DenialCode.MODIFICATION_CAP, `smart leg ${target.tag} has used ${target.modifications} modifications; hand it to local emulation (trailing stops do this themselves)`);
      }
      return this.replace(target, change, i.strategyId);
    }
    const n = this.orders.noteModification(target.tag);
    void this.persistModifications(target.tag, n);
    const isLeg = target.parentTag !== undefined && this.smartTags.has(target.parentTag);
    const isSmartParent = this.smartTags.has(target.tag);
    const call: VenueCall =
      isLeg || isSmartParent
        ? { op: 'modifySmart', change, req: Object.assign({ tag: target.parentTag ?? target.tag, orderId: target.orderId, instrument: target.instrument, leg: target.leg ?? 'entry' }, change) }
        : { op: 'modify', change, req: Object.assign({ tag: target.tag, orderId: target.orderId, instrument: target.instrument, orderType: target.orderType }, change) };
    this.send(target.tag, i, call);
  }

  private cancel(i: CancelIntent): void {
    const target = this.resolveTarget(i.target, i.leg);
    if (!target) return this.deny(i, DenialCode.UNKNOWN_ORDER, `no order ${i.target}`);
    if (isTerminalStatus(target.status)) return; // already done: nothing to cancel, nothing to deny
    this.cancelOrder(target, i);
  }

  /** Cancels one working order, or holds the cancel until its id is known (also the OCO sibling cancel). */
  cancelOrder(target: OrderSnapshot, intent?: Intent): void {
    if (target.slices !== undefined) return this.slicer?.cancel(target.tag);
    if (!target.orderId) {
      // Not acknowledged yet: cancel as soon as it is (see onOrderEvent).
      this.pendingCancel.add(target.tag);
      return;
    }
    const isLeg = target.parentTag !== undefined && this.smartTags.has(target.parentTag);
    const isSmartParent = this.smartTags.has(target.tag);
    const call: VenueCall =
      isLeg || isSmartParent
        ? { op: 'cancelSmart', req: { tag: target.parentTag ?? target.tag, orderId: target.orderId, instrument: target.instrument, leg: target.leg ?? 'entry' } }
        : { op: 'cancel', req: { tag: target.tag, orderId: target.orderId, instrument: target.instrument } };
    this.send(target.tag, intent, call);
  }

  private exit(i: ExitIntent): void {
    if (i.cancelOpenOrders !== false) this.cancelWorking(this.orders.openOrders(i.strategyId, i.instrument), i);
    const books = this.portfolio.openBooksOf(i.strategyId, i.instrument, i.product);
    books.forEach((p, k) => {
      const tag = k === 0 ? i.id : this.newTag(i.strategyId);
      this.place({ kind: 'place', id: tag, strategyId: i.strategyId, instrument: i.instrument, side: p.netQty > 0 ? 'SELL' : 'BUY', qty: Math.abs(p.netQty), orderType: 'MARKET', validity: 'DAY', product: p.product }, undefined, undefined, true);
    });
  }

  private replace(target: OrderSnapshot, change: { qty?: number; limitPrice?: Paise; triggerPrice?: Paise }, strategyId: string): void {
    if (this.pendingReplace.has(target.tag)) {
      // A second change before the first replacement went out: fold it in.
      const p = this.pendingReplace.get(target.tag)!;
      this.pendingReplace.set(target.tag, { ...p, qty: change.qty ?? p.qty, limitPrice: change.limitPrice ?? p.limitPrice, triggerPrice: change.triggerPrice ?? p.triggerPrice });
      return;
    }
    this.pendingReplace.set(target.tag, {
      strategyId,
      qty: change.qty ?? target.qty,
      limitPrice: change.limitPrice ?? target.limitPrice,
      triggerPrice: change.triggerPrice ?? target.triggerPrice,
      newTag: this.newTag(strategyId),
    });
    this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: 'order_replaced', source: 'execution', detail: `order ${target.tag} used ${target.modifications} modifications: cancel-and-replace` });
    this.cancelOrder(target);
  }

  private onOrderEvent(o: OrderSnapshot): void {
    if (o.sliceOf !== undefined) this.slicer?.onOrder(o);
    if (o.orderId && this.pendingCancel.has(o.tag)) {
      this.pendingCancel.delete(o.tag);
      this.pendingModify.delete(o.tag); // a cancel supersedes a held change
      if (!isTerminalStatus(o.status)) this.cancelOrder(o);
    }
    if (o.orderId && this.pendingModify.has(o.tag)) {
      const m = this.pendingModify.get(o.tag)!;
      this.pendingModify.delete(o.tag);
      if (!isTerminalStatus(o.status)) this.modify(m);
    }
    if (isTerminalStatus(o.status)) {
      this.funds.afterFinal(o.tag);
      this.pendingCancel.delete(o.tag);
      this.pendingModify.delete(o.tag);
      const rep = this.pendingReplace.get(o.tag);
      if (rep) {
        this.pendingReplace.delete(o.tag);
        const remaining = rep.qty - o.filledQty;
        if (remaining > 0 && o.status !== 'REJECTED') {
          this.place(
            { kind: 'place', id: rep.newTag, strategyId: rep.strategyId, instrument: o.instrument, side: o.side, qty: remaining, orderType: o.orderType, validity: o.validity, product: o.product, ...(rep.limitPrice !== undefined ? { limitPrice: rep.limitPrice } : {}), ...(rep.triggerPrice !== undefined ? { triggerPrice: rep.triggerPrice } : {}) },
            o.tag,
          );
        }
      }
    }
    this.emulation.onOrder(o);
    if (isTerminalStatus(o.status)) this.forgetSmart(o.parentTag ?? o.tag);
  }

  /** Drops the bookkeeping of a smart order once its entry and both legs are final. */
  private forgetSmart(parent: string): void {
    if (!this.smartTags.has(parent) && !this.emulation.has(parent)) return;
    const done = (tag: string): boolean => {
      const x = this.orders.getExact(tag);
      return x === undefined || isTerminalStatus(x.status);
    };
    const entry = this.orders.getExact(parent);
    // An emulated entry that filled still has its legs to place.
    if (this.emulation.legsOwed(parent, entry)) return;
    if (done(parent) && done(legTag(parent, 'stopLoss')) && done(legTag(parent, 'target'))) {
      this.smartTags.delete(parent);
      this.emulation.forget(parent);
    }
  }

  /** One slice of an auto-sliced order (auto-slice.ts): an ordinary order of its own. */
  placeSlice(intent: PlaceIntent, sliceOf: string): void {
    this.place(intent, undefined, sliceOf);
  }

  modifySlice(intent: ModifyIntent): void {
    this.modify(intent);
  }

  denySliced(intent: ModifyIntent, code: DenialCode, reason: string): void {
    this.deny(intent, code, reason);
  }

  /** A place for an emulated smart order's leg (smart-emulation.ts). */
  placeEmulatedLeg(tag: string, intent: PlaceIntent, req: VenueOrderRequest, parent: string): void {
    this.write(tag, intent, { op: 'place', req }, parent);
  }

  /** The order a modify/cancel names: the live order after replacements, or a smart order's leg. */
  private resolveTarget(tag: string, leg: SmartLegName | undefined): OrderSnapshot | undefined {
    if (leg && leg !== 'entry') return this.orders.get(legTag(tag, leg));
    return this.orders.get(tag);
  }

  // Writes --------------------------------------------------------------------------------------

  /**
   * A place (regular, smart or an emulated leg of `parent`): journal, send, handle the outcome. The
   * intent travels with the write (a venue refusal is denied in its name), not in a map per order.
   */
  private write(tag: string, intent: PlaceIntent | SmartIntent, call: PlaceCall, parent: string | undefined): void {
    if (this.venue.capabilities.synchronous || !this.store) {
      // An in-process venue lives and dies with this process: there is nothing to reconcile after
      // a crash, so no journal (backtests stay free of per-order persistence).
      this.send(tag, intent, call);
      return;
    }
    const r = call.req;
    const entry: { [k: string]: string | number | boolean } = { ts: this.clock.now(), tag, strategyId: intent.strategyId, instrument: r.instrument, side: r.side, qty: r.qty };
    if (call.op === 'placeSmart') entry['smart'] = true;
    if (parent !== undefined) entry['parent'] = parent;
    const kind = 'place';
    // Asynchronous venue: the tag is durable before the order can exist.
    this.tracker.begin();
    this.tracker.hold(tag);
    writeJournalEntry(this.store, tag, entry).then(
      () => {
        this.tracker.end();
        this.send(tag, intent, call);
        this.tracker.release(tag);
      },
      (err: unknown) => {
        this.tracker.end();
        this.tracker.release(tag);
        this.log.error({ err, tag, kind }, 'execution: could not journal the tag; the order is not sent');
        this.orders.rejected(tag, `not sent: journal write failed (${describeError(err)})`);
        this.tracker.checkIdle();
      },
    );
  }

  /** Sends a write; `lost` when it is the one resend after a lost answer (lost-answers.ts). */
  private send(tag: string, intent: Intent | undefined, call: VenueCall, lost?: LostWrite): void {
    let r: VenueResult<WriteOutcome>;
    try {
      r = invokeVenue(this.venue, call);
    } catch (err) {
      r = { status: 'unknown', reason: describeError(err) };
    }
    if (!isPromiseLike(r)) return this.outcome(tag, intent, call, r, lost);
    this.tracker.begin();
    this.tracker.hold(tag);
    r.then(
      (o) => this.outcome(tag, intent, call, o, lost),
      (err: unknown) => this.outcome(tag, intent, call, { status: 'unknown', reason: describeError(err) }, lost),
    ).finally(() => {
      this.tracker.end();
      this.tracker.release(tag);
      this.tracker.checkIdle();
    });
  }

  /** LostAnswerRouter: the book proved the write never arrived; it goes once more. */
  resend(w: LostWrite): void {
    this.send(w.tag, w.intent, w.call, w);
  }

  /** LostAnswerRouter: the book answered for the venue. */
  answered(w: LostWrite, o: WriteOutcome): void {
    this.outcome(w.tag, w.intent, w.call, o, w);
  }

  private outcome(tag: string, intent: Intent | undefined, call: VenueCall, o: WriteOutcome, lost: LostWrite | undefined): void {
    const kind = call.op === 'place' || call.op === 'placeSmart' ? 'place' : call.op === 'modify' || call.op === 'modifySmart' ? 'modify' : 'cancel';
    if (o.status === 'accepted') {
      if (kind === 'place') this.orders.accepted(tag, o.orderId, o.venueStatus, o.legs);
      else if (kind === 'cancel') {
        const snap = this.orders.getExact(tag);
        if (snap?.orderId) this.orders.applyState({ orderId: snap.orderId, status: 'CANCELLED', ts: this.clock.now(), ...(o.venueStatus ? { venueStatus: o.venueStatus } : {}) });
      } else if (call.op === 'modify' || call.op === 'modifySmart') this.orders.modified(tag, call.change);
      return;
    }
    if (o.status === 'rejected') {
      if (kind === 'place') this.orders.rejected(tag, o.reason);
      if (intent) this.deny(intent, DenialCode.VENUE_REJECTED, kind === 'place' ? o.reason : `${kind} refused: ${o.reason}`);
      // The engine's own cancels (OCO sibling, cancel-and-replace, flatten) have no intent to deny.
      else if (kind !== 'place') this.log.warn({ tag, kind, reason: o.reason }, 'execution: the venue did not apply a change the engine sent itself; the order stays as the venue has it');
      return;
    }
    // The answer is lost: the one owner settles it from the order book (lost-answers.ts).
    this.lostAnswers.begin({ tag, intent, call, reason: o.reason, round: lost ? 2 : 1, since: lost?.since ?? this.clock.now() });
  }

  // Helpers -------------------------------------------------------------------------------------

  private deny(intent: Intent, code: DenialCode, reason: string): void {
    this.bus.publish({ type: 'denied', ts: this.clock.now(), intent, code, reason });
  }

  private async persistModifications(tag: string, n: number): Promise<void> {
    if (!this.store) return;
    try {
      await writeModifications(this.store, tag, n);
    } catch (err) {
      this.log.error({ err, ns: 'mods', key: tag }, 'execution: could not persist');
    }
  }
}

