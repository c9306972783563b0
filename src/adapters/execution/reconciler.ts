/**
 * Reconciliation with the venue: what the venue really holds, read back and merged.
 *
 * - After the stream reconnects (and at start), the order book and trades are read again and
 *   merged, so nothing that happened while it was down is lost. Orders with our tag that we do not
 *   know are adopted through the state machine's `onUnknownTagged`; untagged foreign orders are
 *   flagged and left alone. Venue positions are compared with the portfolio built from fills.
 * - A write whose answer is lost is settled by lost-answers.ts (its owner: the looks by tag, the
 *   verdicts, the one resend the book allows); this file reads the whole book.
 * - The daily reconcile bounds what finished orders leave behind across days: journal entries in
 *   the store (order-journal.ts) and finished orders of earlier days in memory.
 * - A contract the exchange settled at expiry (no fill of ours closes it) is booked as settled.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import { isTerminalStatus, type Product } from '../../core/enums.js';
import { describeError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { Store } from '../../core/store.js';
import { istDate, istDayStart } from '../../core/time.js';
import type { FillGaps } from './fill-gaps.js';
import type { Funds } from './funds.js';
import { pruneJournal, type JournalPruneResult } from './order-journal.js';
import type { OrderStateMachine } from './order-state-machine.js';
import type { Portfolio } from './portfolio.js';
import { isManualTag } from './tags.js';
import type { BrokerSquareOffs } from './broker-square-off.js';
import { isBrokerSquareOff } from '../../risk/rules/square-off.js';
import { venueValue, type ExecutionVenue, type VenuePosition } from './venue.js';
import type { WriteTracker } from './write-tracker.js';

/** What the daily reconcile let go of. */
export interface DayReconcileResult {
  readonly journalPruned: number;
  readonly journalKept: number;
  readonly ordersForgotten: number;
}

/** Changes the router holds for an order (a modify or cancel waiting for its id, a replacement). */
export interface HeldChanges {
  isHeld(tag: string): boolean;
}

export interface ReconcilerOptions {
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly venue: ExecutionVenue;
  readonly orders: OrderStateMachine;
  readonly portfolio: Portfolio;
  readonly funds: Funds;
  readonly gaps: FillGaps;
  readonly tracker: WriteTracker;
  readonly held: HeldChanges;
  /** Fills of the broker's square-off orders in the trade book are booked here, not as ours. */
  readonly squareOffs: BrokerSquareOffs;
  readonly store: Store | undefined;
  readonly log: Logger;
}

export class Reconciler {
  private readonly clock: Clock;
  private readonly bus: EventBus;
  private readonly venue: ExecutionVenue;
  private readonly orders: OrderStateMachine;
  private readonly portfolio: Portfolio;
  private readonly funds: Funds;
  private readonly gaps: FillGaps;
  private readonly tracker: WriteTracker;
  private readonly held: HeldChanges;
  private readonly squareOffs: BrokerSquareOffs;
  private readonly store: Store | undefined;
  private readonly log: Logger;
  /** Tags and order ids the last full read of the order book listed, and when it was read (daily reconcile). */
  private lastBook: { readonly at: number; readonly listed: ReadonlySet<string>; readonly ids: ReadonlySet<string> } | undefined;
  /** Expired positions booked as settled (instrument:product:expiry; one entry per contract held through an expiry). */
  private readonly settled = new Set<string>();

  constructor(o: ReconcilerOptions) {
    this.clock = o.clock;
    this.bus = o.bus;
    this.venue = o.venue;
    this.orders = o.orders;
    this.portfolio = o.portfolio;
    this.funds = o.funds;
    this.gaps = o.gaps;
    this.tracker = o.tracker;
    this.held = o.held;
    this.squareOffs = o.squareOffs;
    this.store = o.store;
    this.log = o.log;
  }

  /** Receives every position check's differences (none: the books agree); see position-mismatch.ts. */
  onPositionCheck: (diffs: readonly PositionDiff[]) => void = () => undefined;

  /** Reads the order book and trades and merges them: at start (after a restart) and after every reconnect. */
  async resync(reason: string): Promise<boolean> {
    try {
      const at = this.clock.now();
      const book = await venueValue(this.venue.orderBook());
      this.lastBook = { at, listed: new Set(book.flatMap((s) => (s.tag === undefined ? [] : [s.tag]))), ids: new Set(book.map((s) => s.orderId)) };
      for (const s of book) if (!isBrokerSquareOff(s.tag)) this.orders.applyState(s);
      const trades = await venueValue(this.venue.trades());
      for (const f of trades) {
        if (isBrokerSquareOff(f.tag)) this.squareOffs.onFill(f);
        else this.orders.applyFill(f);
      }
      // Working orders we cannot own (no tag of ours): flagged, never touched. Orders an operator
      // placed by hand (`tarang order`, tags.ts) are left alone too, and said to be that.
      const others = book.filter((s) => !isBrokerSquareOff(s.tag) && this.orders.tagOfOrderId(s.orderId) === undefined && !isTerminalStatus(s.status));
      const manual = others.filter((s) => isManualTag(s.tag));
      const foreign = others.filter((s) => !isManualTag(s.tag));
      if (manual.length > 0) {
        this.log.info({ orders: manual.slice(0, 20).map((s) => ({ orderId: s.orderId, tag: s.tag })), count: manual.length }, 'execution: working orders placed by hand (tarang order) are left alone');
      }
      if (foreign.length > 0) {
        this.bus.publish({ type: 'alert', ts: this.clock.now(), level: 'warn', code: 'FOREIGN_ORDERS', message: `${foreign.length} working orders at the venue are not ours (no tarang tag); left alone`, context: { orderIds: foreign.slice(0, 20).map((s) => s.orderId) } });
      }
      await this.checkPositions();
      await this.funds.refresh();
      if (this.orders.hasFillGaps()) this.gaps.onGap();
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
   * (unless told not to), then prunes the journal and forgets finished orders of earlier days.
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

  /**
   * A position the venue reports flat after its contract's expiry while ours is still open was
   * closed by the exchange's settlement: booked as settlement fills (tag `settlement:...`) at the
   * settlement price read back from the venue's realised P&L of the position (falling back to the
   * last price, said in the alert), so the portfolio, strategies and the session summary stop
   * carrying it.
   */
  settleExpired(vp: VenuePosition): void {
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

  /** Whether anything is still awaited, held, tracked as working or owed for this exact tag. */
  private busy(tag: string): boolean {
    if (this.tracker.isUnsettled(tag) || this.held.isHeld(tag)) return true;
    const o = this.orders.getExact(tag);
    return o !== undefined && (!isTerminalStatus(o.status) || this.orders.owesFills(tag));
  }

  /**
   * Compares the venue's positions with the portfolio built from fills and raises an alert for
   * each difference (positions carried from earlier days, manual trades). Nothing is adjusted:
   * an operator decides.
   */
  private async checkPositions(): Promise<void> {
    let venuePositions: readonly VenuePosition[];
    try {
      venuePositions = await venueValue(this.venue.positions());
    } catch (err) {
      this.log.warn({ err }, 'execution: could not read venue positions for the check');
      return;
    }
    for (const vp of venuePositions) this.settleExpired(vp);
    const seen = new Set<string>();
    const diffs: PositionDiff[] = [];
    for (const vp of venuePositions) {
      seen.add(`${vp.instrument}|${vp.product}`);
      const ours = this.portfolio.books().find((b) => b.instrument === vp.instrument && b.product === vp.product)?.netQty ?? 0;
      if (ours !== vp.netQty) diffs.push({ instrument: vp.instrument, product: vp.product, venue: vp.netQty, ours });
    }
    for (const b of this.portfolio.positions()) {
      if (!seen.has(`${b.instrument}|${b.product}`) && venuePositions.length > 0) diffs.push({ instrument: b.instrument, product: b.product, venue: 0, ours: b.netQty });
    }
    // An instrument whose fills are still being read differs for that reason alone: not a mismatch yet.
    this.onPositionCheck(diffs.filter((d) => this.orders.settlingIn(d.instrument) === undefined));
  }

}

/** A position (instrument and product) as the broker has it and as tarang's fills give it. */
export interface PositionDiff {
  readonly instrument: string;
  readonly product: Product;
  readonly venue: number;
  readonly ours: number;
}
