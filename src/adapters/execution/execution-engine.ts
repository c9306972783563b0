/**
 * Execution: turns approved intents into venue calls and venue answers into order state.
 *
 * - Every order carries our client tag (the intent id) in `remarks`; its record exists in the
 *   order state machine (PENDING_NEW) before the write leaves, and for asynchronous (network)
 *   venues the tag is journaled in the store (`tags` namespace) before the write, so a crash in
 *   between can always be reconciled by tag. In-process venues need no journal.
 * - Write outcomes: `accepted` links the venue id; `rejected` ends the order (and publishes a
 *   `denied` event with VENUE_REJECTED); `unknown` (timeout, lost ack, a thrown error) is never
 *   retried: the order book is searched for the tag after each delay of `reconcileDelaysMs`, and
 *   whatever is found is adopted. A place still absent after the last look is declared not done.
 * - Modifications are counted per order and persisted (`mods` namespace) before the write. From
 *   the risk config's `replaceAt` on, a modify becomes cancel-and-replace: the old order is
 *   cancelled, and only once it is final the replacement (remaining quantity, new prices, new tag,
 *   `replaces` = old tag) is placed — never two live orders for one intent.
 * - A modify or cancel for an order the venue has not acknowledged yet is held and sent the moment
 *   its id is known (later changes fold into the held one; a cancel supersedes a held change).
 * - Smart orders go to the venue's smart-order calls when it has them; otherwise the engine
 *   emulates them (entry first, then the stop-loss and target as an OCO pair). Trailing stops the
 *   venue ignores are trailed by the engine (see trailing-stop.ts).
 * - After the stream reconnects, the order book and trades are read again and merged, so nothing
 *   that happened while it was down is lost.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import { DenialCode, type OrderEvent, type OrderSnapshot } from '../../core/events.js';
import { oppositeSide, isTerminalStatus, type OrderType, type Product, type Side } from '../../core/enums.js';
import { describeError } from '../../core/errors.js';
import { istDate, istDayStart } from '../../core/time.js';
import type { CancelIntent, ExitIntent, Intent, ModifyIntent, PlaceIntent, SmartIntent, SmartLegName } from '../../core/intents.js';
import type { Logger } from '../../core/log.js';
import { silentLogger } from '../../core/log.js';
import type { Paise } from '../../core/money.js';
import type { JsonValue, Store } from '../../core/store.js';
import type { ExecutionConfig } from './config.js';
import { legTag, type OrderStateMachine } from './order-state-machine.js';
import { pruneJournal, type JournalPruneResult } from './journal-pruning.js';
import type { Portfolio } from './portfolio.js';
import {
  isPromiseLike,
  trailingModeOf,
  type ExecutionVenue,
  type VenueCancelRequest,
  type VenueFill,
  type VenueFunds,
  type VenueModifyRequest,
  type VenueOrderRequest,
  type VenuePosition,
  type VenueResult,
  type VenueSmartCancelRequest,
  type VenueSmartModifyRequest,
  type VenueSmartOrderRequest,
  type VenueUpdate,
  type WriteOutcome,
} from './venue.js';
import type { Mutable } from './mutable.js';

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
  /** Mints a fresh client tag (for replacements, exits over several products, emulated legs). */
  readonly newTag: () => string;
  /** Margin an order blocks (the risk engine's model), for the local funds reservation. */
  readonly marginOf?: (instrument: string, side: Side, qty: number, price: Paise, product: Product) => Paise;
  readonly store?: Store;
  readonly log?: Logger;
}

type WriteKind = 'place' | 'modify' | 'cancel';

/** What the daily reconcile let go of. */
export interface DayReconcileResult {
  readonly journalPruned: number;
  readonly journalKept: number;
  readonly ordersForgotten: number;
}

interface OrderChange {
  qty?: number;
  limitPrice?: Paise;
  triggerPrice?: Paise;
}

/** One venue write, as data. */
type VenueCall =
  | { readonly op: 'place'; readonly req: VenueOrderRequest }
  | { readonly op: 'placeSmart'; readonly req: VenueSmartOrderRequest }
  | { readonly op: 'modify'; readonly req: VenueModifyRequest; readonly change: OrderChange }
  | { readonly op: 'modifySmart'; readonly req: VenueSmartModifyRequest; readonly change: OrderChange }
  | { readonly op: 'cancel'; readonly req: VenueCancelRequest }
  | { readonly op: 'cancelSmart'; readonly req: VenueSmartCancelRequest };

type PlaceCall = Extract<VenueCall, { op: 'place' | 'placeSmart' }>;

interface PendingReplace {
  readonly strategyId: string;
  readonly qty: number;
  readonly limitPrice: Paise | undefined;
  readonly triggerPrice: Paise | undefined;
  readonly newTag: string;
}

/** A smart order emulated by the engine (venue without smart orders). */
interface EmulatedSmart {
  readonly intent: SmartIntent;
  legsPlaced: boolean;
}

export class ExecutionEngine {
  private readonly clock: Clock;
  private readonly bus: EventBus;
  private readonly venue: ExecutionVenue;
  private readonly orders: OrderStateMachine;
  private readonly portfolio: Portfolio;
  private readonly cfg: ExecutionConfig;
  private readonly store: Store | undefined;
  private readonly log: Logger;
  private readonly newTag: () => string;
  private readonly replaceAt: number;
  private readonly marginOf: (instrument: string, side: Side, qty: number, price: Paise, product: Product) => Paise;
  private readonly pendingCancel = new Set<string>();
  private readonly pendingModify = new Map<string, ModifyIntent>();
  private readonly pendingReplace = new Map<string, PendingReplace>();
  private readonly smartTags = new Set<string>();
  private readonly emulated = new Map<string, EmulatedSmart>();
  private gapTimer: { cancel(): void } | undefined;
  /** Tags whose trades are being fetched to close a fill gap. */
  private readonly fetchingTrades = new Set<string>();
  private fundsTimer: { cancel(): void } | undefined;
  private funds: { available: Paise; at: number } | undefined;
  private reservedSinceFunds: Paise = 0;
  private lastFundsRead = -Infinity;
  private fundsStale = false;
  /** Writes whose answer is still outstanding (for a clean stop). */
  private inflight = 0;
  /**
   * Per tag, the writes to an asynchronous venue awaiting their answer and the reconcile lookups
   * under way (journal entries of such orders are never pruned). In-process venues never add here.
   */
  private readonly unsettled = new Map<string, number>();
  /** Tags and order ids the last full read of the order book listed, and when it was read (daily reconcile). */
  private lastBook: { readonly at: number; readonly listed: ReadonlySet<string>; readonly ids: ReadonlySet<string> } | undefined;
  private idleWaiters: Array<() => void> = [];
  /** Expired positions booked as settled (instrument:product:expiry; one entry per contract held through an expiry). */
  private readonly settled = new Set<string>();

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
    this.marginOf = options.marginOf ?? ((_i, _s, qty, price) => qty * price);
    this.replaceAt = Math.min(options.replaceAt, options.maxModifications, options.venue.capabilities.maxModifications);
    // Cancel-and-replace fires when the order being replaced reaches a final state.
    this.bus.on('order', this);
  }

  /** Bus delivery of order events (the engine is a listener object: see BusListener). */
  onBusEvent(e: OrderEvent): void {
    this.onOrderEvent(e.order);
  }

  /** Funds available for new orders: the venue's last figure less what we placed since. */
  availableFunds(): Paise | undefined {
    // In-process venues answer at once: read them lazily, when risk asks, not on every fill.
    if (this.fundsStale) void this.refreshFunds();
    return this.funds ? this.funds.available - this.reservedSinceFunds : undefined;
  }

  /** Carries out an approved intent. Never throws for venue trouble; outcomes arrive as events. */
  execute(intent: Intent): void {
    switch (intent.kind) {
      case 'place':
        return this.place(intent);
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
        this.orders.applyState(u.order);
        if (this.orders.hasFillGaps()) this.onFillGap();
        return;
      case 'fill':
        this.orders.applyFill(u.fill);
        this.afterFill();
        return;
      case 'position':
        // The portfolio is built from fills; venue positions are for reconciliation, except a
        // contract the exchange settled at expiry (no fill of ours closes it).
        this.settleExpired(u.position);
        return;
      case 'connection':
        this.bus.publish({ type: 'lifecycle', ts: u.ts, phase: u.connected ? 'connected' : 'disconnected', source: `venue:${this.venue.name}`, ...(u.detail ? { detail: u.detail } : {}) });
        if (u.connected) void this.resync('reconnected');
        return;
    }
  }

  /**
   * Reads the order book and trades and merges them: at start (after a restart) and after every
   * reconnect. Orders with our tag that we do not know are adopted through the state machine's
   * `onUnknownTagged`; untagged foreign orders are left alone.
   */
  async resync(reason: string): Promise<boolean> {
    try {
      const at = this.clock.now();
      const book = await this.value(this.venue.orderBook());
      this.lastBook = { at, listed: new Set(book.flatMap((s) => (s.tag === undefined ? [] : [s.tag]))), ids: new Set(book.map((s) => s.orderId)) };
      for (const s of book) this.orders.applyState(s);
      const trades = await this.value(this.venue.trades());
      for (const f of trades) this.orders.applyFill(f);
      // Working orders we cannot own (no tag of ours): flagged, never touched.
      const foreign = book.filter((s) => this.orders.tagOfOrderId(s.orderId) === undefined && !isTerminalStatus(s.status));
      if (foreign.length > 0) {
        this.bus.publish({ type: 'alert', ts: this.clock.now(), level: 'warn', code: 'FOREIGN_ORDERS', message: `${foreign.length} working orders at the venue are not ours (no tarang tag); left alone`, context: { orderIds: foreign.slice(0, 20).map((s) => s.orderId) } });
      }
      await this.checkPositions();
      await this.refreshFunds();
      if (this.orders.hasFillGaps()) this.onFillGap();
      this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: 'reconciled', source: 'execution', detail: `${reason}: ${book.length} orders, ${trades.length} trades` });
      return true;
    } catch (err) {
      this.log.error({ err, reason }, 'execution: resync with the venue failed; will try again on the next reconnect');
      this.bus.publish({ type: 'alert', ts: this.clock.now(), level: 'warn', code: 'RESYNC_FAILED', message: `could not read the order book (${describeError(err)})` });
      return false;
    }
  }

  /**
   * The daily reconcile (a daemon calls it after the session end, and once after start with
   * `readBook: false` since start has just read the book): reads the order book and trades again
   * (unless told not to), then bounds what finished orders leave behind across days — journal
   * entries in the store (see journal-pruning.ts) and finished orders of earlier days in memory.
   * A failed book read prunes nothing.
   */
  async reconcileDay(options: { readonly readBook?: boolean } = {}): Promise<DayReconcileResult> {
    if (options.readBook !== false && !(await this.resync('daily reconcile'))) return { journalPruned: 0, journalKept: 0, ordersForgotten: 0 };
    const dayStart = istDayStart(this.clock.now());
    const book = this.lastBook;
    let journal: JournalPruneResult = { pruned: 0, kept: 0 };
    if (this.store && !this.venue.capabilities.synchronous && book) {
      try {
        journal = await pruneJournal({ store: this.store, listed: book.listed, before: Math.min(dayStart, book.at), busy: (tag) => this.busy(tag) });
      } catch (err) {
        this.log.error({ err }, 'execution: pruning the journal failed; entries stay until the next daily reconcile');
      }
    }
    const ids = book?.ids;
    const ordersForgotten = this.orders.forgetFinishedBefore(dayStart, ids ? (id) => ids.has(id) : undefined);
    const r = { journalPruned: journal.pruned, journalKept: journal.kept, ordersForgotten };
    this.log.info(r, 'execution: daily reconcile done');
    this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: 'reconciled', source: 'execution', detail: `daily: journal ${r.journalPruned} pruned, ${r.journalKept} kept; ${r.ordersForgotten} finished orders of earlier days forgotten` });
    return r;
  }

  /** Whether anything is still awaited, held, tracked as working or owed for this exact tag. */
  private busy(tag: string): boolean {
    if (this.unsettled.has(tag) || this.pendingCancel.has(tag) || this.pendingModify.has(tag) || this.pendingReplace.has(tag)) return true;
    const o = this.orders.getExact(tag);
    return o !== undefined && (!isTerminalStatus(o.status) || this.orders.owesFills(tag));
  }

  private hold(tag: string): void {
    this.unsettled.set(tag, (this.unsettled.get(tag) ?? 0) + 1);
  }

  private release(tag: string): void {
    const n = (this.unsettled.get(tag) ?? 1) - 1;
    if (n > 0) this.unsettled.set(tag, n);
    else this.unsettled.delete(tag);
  }

  /**
   * Compares the venue's positions with the portfolio built from fills and raises an alert for
   * each difference (positions carried from earlier days, manual trades). Nothing is adjusted:
   * an operator decides.
   */
  private async checkPositions(): Promise<void> {
    let venuePositions: readonly VenuePosition[];
    try {
      venuePositions = await this.value(this.venue.positions());
    } catch (err) {
      this.log.warn({ err }, 'execution: could not read venue positions for the check');
      return;
    }
    for (const vp of venuePositions) this.settleExpired(vp);
    const seen = new Set<string>();
    const diffs: Array<{ instrument: string; product: Product; venue: number; ours: number }> = [];
    for (const vp of venuePositions) {
      seen.add(`${vp.instrument}|${vp.product}`);
      const ours = this.portfolio.books().find((b) => b.instrument === vp.instrument && b.product === vp.product)?.netQty ?? 0;
      if (ours !== vp.netQty) diffs.push({ instrument: vp.instrument, product: vp.product, venue: vp.netQty, ours });
    }
    for (const b of this.portfolio.positions()) {
      if (!seen.has(`${b.instrument}|${b.product}`) && venuePositions.length > 0) diffs.push({ instrument: b.instrument, product: b.product, venue: 0, ours: b.netQty });
    }
    if (diffs.length > 0) {
      this.bus.publish({ type: 'alert', ts: this.clock.now(), level: 'warn', code: 'POSITION_MISMATCH', message: `${diffs.length} positions differ between the venue and tarang's fills`, context: { diffs: diffs.slice(0, 20) } });
    }
  }

  /**
   * A position the venue reports flat after its contract's expiry while ours is still open was
   * closed by the exchange's settlement: booked as settlement fills (tag `settlement:...`) at the
   * settlement price read back from the venue's realised P&L of the position (falling back to the
   * last price, said in the alert), so the portfolio, strategies and the session summary stop
   * carrying it.
   */
  private settleExpired(vp: VenuePosition): void {
    if (vp.netQty !== 0 || vp.expiry === undefined || vp.expiry >= istDate(this.clock.now())) return;
    const ours = this.portfolio.books().find((b) => b.instrument === vp.instrument && b.product === vp.product);
    if (!ours || ours.netQty === 0) return;
    const implied = vp.realizedPnl === undefined ? undefined : this.portfolio.impliedClosePrice(vp.instrument, vp.product, vp.realizedPnl);
    const fallback = this.portfolio.lastPrice(vp.instrument) ?? Math.round(Math.abs(ours.openValue / ours.netQty));
    const inferred = implied !== undefined && Number.isSafeInteger(implied) && implied >= 0;
    const price = inferred ? implied : fallback;
    const ref = `${vp.instrument}:${vp.product}:${vp.expiry}`;
    // Booked once, even if the record is seen again before the fills have been delivered.
    if (this.settled.has(ref)) return;
    const r = this.portfolio.settlementFills(vp.instrument, vp.product, price, this.clock.now(), ref);
    if (!r) return;
    this.settled.add(ref);
    const context = { instrument: vp.instrument, product: vp.product, expiry: vp.expiry, qty: r.qty, price, realizedPnl: r.realizedPnl, venueRealizedPnl: vp.realizedPnl ?? null };
    this.log.info(context, 'execution: position settled at expiry');
    for (const f of r.fills) this.bus.publish(f);
    this.bus.publish({
      type: 'alert',
      ts: this.clock.now(),
      level: inferred ? 'info' : 'warn',
      code: 'EXPIRY_SETTLED',
      message: inferred
        ? `${vp.instrument} ${vp.product} expired ${vp.expiry}: ${r.qty} settled at ${price} paise (from the venue's realised P&L)`
        : `${vp.instrument} ${vp.product} expired ${vp.expiry}: the venue shows it flat but no settlement price could be read; ${r.qty} cleared at ${price} paise (last price), check the P&L`,
      context,
    });
  }

  /** Reads funds from the venue now (synchronously when the venue answers with a value). */
  refreshFunds(): void | Promise<void> {
    this.fundsStale = false;
    let r: VenueResult<VenueFunds>;
    try {
      r = this.venue.funds();
    } catch (err) {
      return this.fundsFailed(err);
    }
    if (isPromiseLike(r)) return r.then((f) => this.applyFunds(f), (err: unknown) => this.fundsFailed(err));
    this.applyFunds(r);
  }

  private applyFunds(f: VenueFunds): void {
    this.funds = { available: f.available, at: this.clock.now() };
    this.reservedSinceFunds = 0;
    this.lastFundsRead = this.clock.now();
  }

  private fundsFailed(err: unknown): void {
    this.log.warn({ err }, 'execution: could not read funds; keeping the last figure');
  }


  /** Resolves when no write is waiting for its answer. */
  idle(): Promise<void> {
    if (this.inflight === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
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
      this.place({ kind: 'place', id: this.newTag(), strategyId, instrument, side: netQty > 0 ? 'SELL' : 'BUY', qty: Math.abs(netQty), orderType: 'MARKET', validity: 'DAY', product });
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
    this.gapTimer?.cancel();
    this.fundsTimer?.cancel();
  }

  // ---------------------------------------------------------------------------------------------

  private place(i: PlaceIntent, replaces?: string): void {
    this.orders.create({
      tag: i.id, strategyId: i.strategyId, instrument: i.instrument, side: i.side, qty: i.qty, orderType: i.orderType,
      product: i.product, validity: i.validity, limitPrice: i.limitPrice, triggerPrice: i.triggerPrice, parentTag: undefined, leg: undefined, replaces,
    });
    if (this.funds) this.reserve(i.instrument, i.side, i.qty, i.limitPrice ?? i.triggerPrice ?? this.portfolio.lastPrice(i.instrument), i.product);
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
      this.emulated.set(i.id, { intent: i, legsPlaced: false });
      this.place({ kind: 'place', id: i.id, strategyId: i.strategyId, instrument: i.instrument, side: i.side, qty: i.qty, orderType: entryType, validity: i.validity, product: i.product, ...(entryLimit !== undefined ? { limitPrice: entryLimit } : {}), ...(entryTrigger !== undefined ? { triggerPrice: entryTrigger } : {}) });
      return;
    }
    this.smartTags.add(i.id);
    this.orders.create({ ...base, tag: i.id, side: i.side, orderType: entryType, limitPrice: entryLimit, triggerPrice: entryTrigger, leg: 'entry' });
    if (i.stopLoss) this.orders.create({ ...base, tag: legTag(i.id, 'stopLoss'), side: legSide, orderType: 'STOP_LOSS', triggerPrice: i.stopLoss.triggerPrice, limitPrice: i.stopLoss.limitPrice, parentTag: i.id, leg: 'stopLoss' });
    if (i.target) this.orders.create({ ...base, tag: legTag(i.id, 'target'), side: legSide, orderType: 'LIMIT', triggerPrice: i.target.triggerPrice, limitPrice: i.target.limitPrice ?? i.target.triggerPrice, parentTag: i.id, leg: 'target' });
    this.reserve(i.instrument, i.side, i.qty, entryLimit ?? entryTrigger ?? this.portfolio.lastPrice(i.instrument), i.product);
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
    void this.persist('mods', target.tag, n);
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

  private cancelOrder(target: OrderSnapshot, intent?: Intent): void {
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
    const books = this.portfolio.viewFor(i.strategyId).positions().filter((p) => p.instrument === i.instrument && p.netQty !== 0 && (i.product === undefined || p.product === i.product));
    books.forEach((p, k) => {
      const tag = k === 0 ? i.id : this.newTag();
      this.place({ kind: 'place', id: tag, strategyId: i.strategyId, instrument: i.instrument, side: p.netQty > 0 ? 'SELL' : 'BUY', qty: Math.abs(p.netQty), orderType: 'MARKET', validity: 'DAY', product: p.product });
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
      newTag: this.newTag(),
    });
    this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: 'order_replaced', source: 'execution', detail: `order ${target.tag} used ${target.modifications} modifications: cancel-and-replace` });
    this.cancelOrder(target);
  }

  private onOrderEvent(o: OrderSnapshot): void {
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
    this.emulateOco(o);
    if (isTerminalStatus(o.status)) this.forgetSmart(o.parentTag ?? o.tag);
  }

  /** Drops the bookkeeping of a smart order once its entry and both legs are final. */
  private forgetSmart(parent: string): void {
    if (!this.smartTags.has(parent) && !this.emulated.has(parent)) return;
    const done = (tag: string): boolean => {
      const x = this.orders.getExact(tag);
      return x === undefined || isTerminalStatus(x.status);
    };
    const entry = this.orders.getExact(parent);
    const em = this.emulated.get(parent);
    // An emulated entry that filled still has its legs to place.
    if (em && !em.legsPlaced && entry && entry.filledQty > 0) return;
    if (done(parent) && done(legTag(parent, 'stopLoss')) && done(legTag(parent, 'target'))) {
      this.smartTags.delete(parent);
      this.emulated.delete(parent);
    }
  }

  /** OCO emulation for venues without smart orders: legs after the entry fills, one cancels the other. */
  private emulateOco(o: OrderSnapshot): void {
    const em = this.emulated.get(o.tag);
    if (em && !em.legsPlaced && isTerminalStatus(o.status) && o.filledQty > 0) {
      em.legsPlaced = true;
      const i = em.intent;
      const side = oppositeSide(i.side);
      const base = { strategyId: i.strategyId, instrument: i.instrument, qty: o.filledQty, validity: 'DAY' as const, product: i.product, side };
      if (i.stopLoss) this.placeLeg(i.id, 'stopLoss', { ...base, orderType: 'STOP_LOSS', triggerPrice: i.stopLoss.triggerPrice, ...(i.stopLoss.limitPrice !== undefined ? { limitPrice: i.stopLoss.limitPrice } : {}) });
      if (i.target) this.placeLeg(i.id, 'target', { ...base, orderType: 'LIMIT', limitPrice: i.target.limitPrice ?? i.target.triggerPrice });
      return;
    }
    if (o.parentTag && this.emulated.has(o.parentTag) && o.filledQty > 0) {
      const sibling = this.orders.get(legTag(o.parentTag, o.leg === 'stopLoss' ? 'target' : 'stopLoss'));
      if (sibling && !isTerminalStatus(sibling.status) && !this.pendingCancel.has(sibling.tag)) this.cancelOrder(sibling);
    }
  }

  private placeLeg(parent: string, leg: SmartLegName, p: Omit<PlaceIntent, 'kind' | 'id'>): void {
    const tag = legTag(parent, leg);
    const i: PlaceIntent = { kind: 'place', id: tag, ...p };
    this.orders.create({ tag, strategyId: p.strategyId, instrument: p.instrument, side: p.side, qty: p.qty, orderType: p.orderType, product: p.product, validity: p.validity, limitPrice: p.limitPrice, triggerPrice: p.triggerPrice, parentTag: parent, leg });
    const req: Mutable<VenueOrderRequest> = { tag, instrument: p.instrument, side: p.side, qty: p.qty, orderType: p.orderType, validity: p.validity, product: p.product, isAmo: false };
    if (p.limitPrice !== undefined) req.limitPrice = p.limitPrice;
    if (p.triggerPrice !== undefined) req.triggerPrice = p.triggerPrice;
    this.write(tag, i, { op: 'place', req }, parent);
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
    this.inflight++;
    this.hold(tag);
    this.store.set('tags', tag, entry).then(
      () => {
        this.inflight--;
        this.send(tag, intent, call);
        this.release(tag);
      },
      (err: unknown) => {
        this.inflight--;
        this.release(tag);
        this.log.error({ err, tag, kind }, 'execution: could not journal the tag; the order is not sent');
        this.orders.rejected(tag, `not sent: journal write failed (${describeError(err)})`);
        this.checkIdle();
      },
    );
  }

  /** The venue call itself (a switch, not a closure per write: this is the order hot path). */
  private invoke(c: VenueCall): VenueResult<WriteOutcome> {
    switch (c.op) {
      case 'place':
        return this.venue.place(c.req);
      case 'placeSmart':
        return this.venue.placeSmart(c.req);
      case 'modify':
        return this.venue.modify(c.req);
      case 'modifySmart':
        return this.venue.modifySmart(c.req);
      case 'cancel':
        return this.venue.cancel(c.req);
      case 'cancelSmart':
        return this.venue.cancelSmart(c.req);
    }
  }

  private send(tag: string, intent: Intent | undefined, call: VenueCall): void {
    let r: VenueResult<WriteOutcome>;
    try {
      r = this.invoke(call);
    } catch (err) {
      r = { status: 'unknown', reason: describeError(err) };
    }
    if (!isPromiseLike(r)) return this.outcome(tag, intent, call, r);
    this.inflight++;
    this.hold(tag);
    r.then(
      (o) => this.outcome(tag, intent, call, o),
      (err: unknown) => this.outcome(tag, intent, call, { status: 'unknown', reason: describeError(err) }),
    ).finally(() => {
      this.inflight--;
      this.release(tag);
      this.checkIdle();
    });
  }

  private outcome(tag: string, intent: Intent | undefined, call: VenueCall, o: WriteOutcome): void {
    const kind: WriteKind = call.op === 'place' || call.op === 'placeSmart' ? 'place' : call.op === 'modify' || call.op === 'modifySmart' ? 'modify' : 'cancel';
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
    this.log.warn({ tag, kind, reason: o.reason }, 'execution: no reliable answer; reconciling by tag (no retry)');
    this.reconcile(tag, kind, 0);
  }

  /** Looks the tag up in the order book after each configured delay; adopts what it finds. */
  private reconcile(tag: string, kind: WriteKind, attempt: number): void {
    const delays = this.cfg.reconcileDelaysMs;
    // The tag stays unsettled from the lost answer until the last lookup is done.
    if (attempt === 0) this.hold(tag);
    if (attempt >= delays.length) {
      this.release(tag);
      if (kind === 'place') {
        const snap = this.orders.getExact(tag);
        if (snap && !snap.orderId && !isTerminalStatus(snap.status)) {
          this.orders.rejected(tag, `not found in the order book after ${delays.length} lookups following a lost answer: treated as not placed`);
          this.bus.publish({ type: 'alert', ts: this.clock.now(), level: 'warn', code: 'ORDER_NOT_FOUND', message: `order ${tag}: answer lost and not in the order book; treated as not placed` });
        }
      }
      return;
    }
    this.inflight++;
    this.clock.setTimeout(() => {
      void this.value(this.venue.orderBook())
        .then((book) => {
          const root = tag.replace(/\.(sl|tg)$/, '');
          const mine = book.filter((s) => s.tag === root || s.tag === tag);
          for (const s of mine) this.orders.applyState(s);
          const snap = this.orders.getExact(tag);
          const found = snap?.orderId !== undefined;
          if (!found || kind !== 'place') {
            if (!found) this.reconcile(tag, kind, attempt + 1);
            else this.release(tag);
          } else {
            this.release(tag);
            this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: 'reconciled', source: 'execution', detail: `order ${tag} found by tag after a lost answer` });
          }
        })
        .catch((err: unknown) => {
          this.log.warn({ err, tag }, 'execution: order-book lookup failed; trying again');
          this.reconcile(tag, kind, attempt + 1);
        })
        .finally(() => {
          this.inflight--;
          this.checkIdle();
        });
    }, delays[attempt]!);
  }

  // Fills, funds --------------------------------------------------------------------------------

  private afterFill(): void {
    this.armGapCheck();
    if (this.venue.capabilities.synchronous) {
      this.fundsStale = true;
      return;
    }
    if (this.cfg.fundsRefreshMs === 0) {
      void this.refreshFunds();
      return;
    }
    if (this.fundsTimer) return;
    const wait = Math.max(0, this.lastFundsRead + this.cfg.fundsRefreshMs - this.clock.now());
    this.fundsTimer = this.clock.setTimeout(() => {
      this.fundsTimer = undefined;
      void this.refreshFunds();
    }, wait);
  }

  /**
   * The venue reports more filled quantity than fills received (a stream with cumulative
   * quantities only, or a lost fill): fetch the order's trades now (one fetch in flight per order),
   * and check again after `fillGapMs`.
   */
  private onFillGap(): void {
    for (const g of this.orders.fillGaps()) {
      const id = g.orderId;
      if (!id || this.fetchingTrades.has(g.tag)) continue;
      this.fetchingTrades.add(g.tag);
      this.inflight++;
      this.value(this.venue.trades(id))
        .then((fills) => {
          let booked = false;
          for (const f of fills) booked = this.orders.applyFill(f) || booked;
          if (booked) this.afterFill();
        })
        .catch((err: unknown) => this.log.warn({ err, tag: g.tag }, 'execution: could not fetch trades for a fill gap; will retry'))
        .finally(() => {
          this.fetchingTrades.delete(g.tag);
          this.inflight--;
          this.checkIdle();
        });
    }
    this.armGapCheck();
  }

  /** Retries gaps that persist for `fillGapMs`; books a synthetic fill as a last resort. */
  private armGapCheck(): void {
    if (this.gapTimer || !this.orders.hasFillGaps()) return;
    this.gapTimer = this.clock.setTimeout(() => {
      this.gapTimer = undefined;
      void this.closeGaps();
    }, this.cfg.fillGapMs);
  }

  private async closeGaps(): Promise<void> {
    for (const g of this.orders.fillGaps()) {
      if (!g.orderId) continue;
      try {
        const fills: readonly VenueFill[] = await this.value(this.venue.trades(g.orderId));
        for (const f of fills) this.orders.applyFill(f);
      } catch (err) {
        this.log.warn({ err, tag: g.tag }, 'execution: could not fetch trades for a fill gap');
      }
      if (this.orders.fillGaps().some((x) => x.tag === g.tag) && this.orders.closeGapSynthetic(g.tag)) {
        this.log.warn({ tag: g.tag }, 'execution: venue reported fills it could not list; booked a synthetic fill at its average price');
      }
    }
  }

  /** Blocks the margin of an order that opens exposure until the venue's next funds figure. */
  private reserve(instrument: string, side: Side, qty: number, price: Paise | undefined, product: Product): void {
    if (price === undefined || !this.funds) return;
    const net = this.portfolio.netQty(instrument);
    const closing = Math.sign(net) === (side === 'BUY' ? -1 : 1) ? Math.min(qty, Math.abs(net)) : 0;
    if (qty > closing) this.reservedSinceFunds += this.marginOf(instrument, side, qty - closing, price, product);
  }

  // Helpers -------------------------------------------------------------------------------------

  private deny(intent: Intent, code: DenialCode, reason: string): void {
    this.bus.publish({ type: 'denied', ts: this.clock.now(), intent, code, reason });
  }

  private async value<T>(r: VenueResult<T>): Promise<T> {
    return r;
  }

  private checkIdle(): void {
    if (this.inflight === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private async persist(ns: string, key: string, value: JsonValue): Promise<void> {
    if (!this.store) return;
    try {
      await this.store.set(ns, key, value);
    } catch (err) {
      this.log.error({ err, ns, key }, 'execution: could not persist');
    }
  }
}

