/**
 * One true state per order. Merges what we asked for (the intent), what the venue answered (REST
 * outcomes), what the order book says (reconciliation) and what the stream pushes (order updates
 * and fills) — in any order, duplicated or partly missing — into one monotonic state per order
 * (see order-status-merge.ts), and publishes every change as an `order` event and every new fill
 * as a `fill` event.
 *
 * Keys. Orders are keyed by our client tag (the `remarks`). A smart order's legs share the parent's
 * remarks on the wire, so their records are keyed `<tag>.sl` / `<tag>.tg` with `parentTag` set.
 * Venue order ids are linked as they become known; updates for an id we cannot place yet (a stream
 * update racing the placement answer) wait in a bounded orphan buffer and are applied the moment
 * the id is linked.
 *
 * Smart legs. The stream reports a leg under its own id with the parent's `remarks` and usually
 * without saying it is a leg, often before the placement answer names any id. The tag alone
 * therefore never identifies the parent of a smart order: an id is taken as the parent's only when
 * it is the parent's linked id or the update says so (leg `entry`, or the parent's side); an id on
 * the legs' side (legs always trade against the entry) or a second id once the parent's is known
 * is one of the legs — linked when exactly one unlinked leg fits, parked otherwise until the
 * placement answer or an order-book record names it. Nothing for a leg id ever touches the parent.
 *
 * Fills (booked by fill-ledger.ts). De-duplicated by `fillId`. `filledQty` is the larger of what the venue reports and what
 * the fills add up to; when reports run ahead of fills (a stream that only gives cumulative
 * quantities, a lost fill), the order is listed in `fillGaps()` and the execution engine fetches
 * its trades, or books a synthetic fill at the reported average as a last resort.
 *
 * Auto-sliced orders (auto-slice.ts): the order asked for is a record that is never sent, its
 * figures summed from its slices' records (`setSliced`); it is listed instead of its slices to
 * strategies and cancels, and its slices instead of it in the working counts.
 *
 * Over 500 lines on purpose: one job, every source merged into one state per order over records
 * only this class touches; split, the parts would share its private maps.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { Clock } from '../../core/clock.js';
import { isTerminalStatus, type OrderStatus, type Side } from '../../core/enums.js';
import type { OrderSnapshot } from '../../core/events.js';
import type { SmartLegName } from '../../core/intents.js';
import type { Logger } from '../../core/log.js';
import { silentLogger } from '../../core/silent-log.js';
import type { Paise } from '../../core/money.js';
import { FinishedOrders, type FinalSnapshot, type ForgetHooks } from './finished-orders.js';
import { FillLedger, type FillGap } from './fill-ledger.js';
import { differs, newRecord, snapshotOf, type NewOrder, type OrderRecord } from './order-record.js';
import { mergeStatus, statusForFill } from './order-status-merge.js';
import { OrphanBuffer } from './orphan-buffer.js';
import { legTag } from './tags.js';
import type { VenueFill, VenueOrderState } from './venue.js';

export type { NewOrder } from './order-record.js';

const MAX_ORPHANS = 10_000;
/** `resolve`: the update cannot be placed on one record yet (park it, never guess). */
const AMBIGUOUS = Symbol('ambiguous');

export class OrderStateMachine implements ForgetHooks {
  private readonly records = new Map<string, OrderRecord>();
  private readonly byOrderId = new Map<string, OrderRecord>();
  private readonly open = new Set<OrderRecord>();
  /** Open orders per instrument (creation order) and the open entries: asked on every tick that trades, never a walk over all. */
  private readonly openIn = new Map<string, Set<OrderRecord>>();
  private openEntries = 0;
  /** Fills booked once each, and the orders whose reported fills run ahead of them (fill-ledger.ts). */
  private readonly fills: FillLedger;
  private readonly orphanStates = new OrphanBuffer<VenueOrderState>(MAX_ORPHANS);
  private readonly orphanFills = new OrphanBuffer<VenueFill>(MAX_ORPHANS);
  /**
   * Tags of smart parents that have (or had) leg records: most orders have no legs, and knowing
   * that spares `resolve` two leg-key strings and lookups on every update found by tag.
   */
  private readonly smartParents = new Set<string>();
  /** Finished orders, forgotten past `retainFinished` (and by day at the daily reconcile). */
  private readonly finished: FinishedOrders;
  private readonly log: Logger;
  /** Called for a venue order carrying one of our tags that we have no record of (after a crash). */
  onUnknownTagged: (state: VenueOrderState) => NewOrder | undefined = () => undefined;

  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly options: {
      log?: Logger;
      isOurTag?: (tag: string) => boolean;
      /**
       * Finished orders kept for lookups (default 50,000, far above a trading day's orders). Older
       * finished orders are forgotten, and late updates for them are ignored: long backtests and
       * multi-day daemons stay flat in memory.
       */
      retainFinished?: number;
    } = {},
  ) {
    this.log = options.log ?? silentLogger();
    this.fills = new FillLedger(bus, this.log);
    const retain = options.retainFinished ?? 50_000;
    if (!(retain >= 1)) throw new RangeError(`retainFinished must be >= 1, got ${retain}`);
    this.finished = new FinishedOrders(clock, retain, this);
  }

  /** Starts tracking an order we are about to send (PENDING_NEW) and publishes it. */
  create(o: NewOrder): OrderSnapshot {
    if (this.records.has(o.tag)) throw new RangeError(`order ${o.tag} is already tracked`);
    const rec = newRecord(o);
    this.records.set(o.tag, rec);
    this.addOpen(rec);
    if (o.parentTag !== undefined) this.smartParents.add(o.parentTag);
    if (o.replaces) {
      const old = this.records.get(o.replaces);
      if (old) old.replacedBy = o.tag;
    }
    this.publish(rec);
    return rec.snapshot;
  }

  /** The venue took the order: link its id (and smart-leg ids) and apply any updates that raced ahead. */
  accepted(tag: string, orderId: string, venueStatus?: string, legs?: { stopLoss?: string; target?: string }): void {
    const rec = this.records.get(tag);
    if (!rec) return;
    let changed = this.link(rec, orderId);
    if (rec.status === 'PENDING_NEW') {
      rec.status = mergeStatus(rec.status, rec.orderType === 'STOP_LOSS' ? 'TRIGGER_PENDING' : 'OPEN');
      changed = true;
    }
    // The ack's status text is older than anything the stream already told us.
    if (venueStatus !== undefined && rec.venueStatus === undefined && !isTerminalStatus(rec.status) && rec.reportedFilled === 0 && rec.fillQty === 0) {
      rec.venueStatus = venueStatus;
      changed = true;
    }
    if (changed) this.publish(rec);
    if (legs?.stopLoss !== undefined) this.acceptedLeg(legTag(tag, 'stopLoss'), legs.stopLoss);
    if (legs?.target !== undefined) this.acceptedLeg(legTag(tag, 'target'), legs.target);
    this.drainOrphans(orderId);
  }

  private acceptedLeg(tag: string, id: string): void {
    const lr = this.records.get(tag);
    if (lr && this.link(lr, id)) {
      this.publish(lr);
      this.drainOrphans(id);
    }
  }

  /** The venue certainly refused the order (or it was never placed). */
  rejected(tag: string, reason: string): void {
    const rec = this.records.get(tag);
    if (!rec || isTerminalStatus(rec.status)) return;
    rec.status = 'REJECTED';
    rec.reason = reason;
    this.publish(rec);
    if (!this.smartParents.has(tag)) return;
    // Legs of a refused smart order never existed either.
    for (const leg of ['stopLoss', 'target'] as const) {
      const lr = this.records.get(legTag(tag, leg));
      if (lr && !isTerminalStatus(lr.status) && lr.orderId === undefined) {
        lr.status = 'REJECTED';
        lr.reason = `parent ${tag} rejected`;
        this.publish(lr);
      }
    }
  }

  /** Merges an order state from the venue (stream update or order-book record). */
  applyState(s: VenueOrderState): void {
    if (this.finished.isForgotten(s.orderId)) return;
    const found = this.resolve(s.orderId, s.tag, s.leg, s.parentOrderId, s.side, s.triggerPrice);
    const rec = found === AMBIGUOUS ? undefined : (found ?? this.adopt(s));
    if (!rec) {
      this.orphanStates.park(s.orderId, s);
      return;
    }
    const before = rec.snapshot;
    const linked = this.link(rec, s.orderId);
    mergeState(rec, s);
    if (linked || differs(rec, before)) this.publish(rec);
    if (linked) this.drainOrphans(s.orderId);
  }

  /**
   * Books a fill once (by `fillId`); returns false for a duplicate or a fill parked as orphan. A
   * real fill on an order that carries a synthetic one (booked for a gap the venue could not list
   * at the time) replaces it rather than adding to it: the quantity the synthetic fill already
   * booked is not booked twice, whichever path (stream, gap read, reconcile) brought the real one.
   *
   * `state`: the order's state after this fill, when the venue tells it with the fill (an
   * in-process venue). It is merged exactly as `applyState` would merge it right after the fill,
   * and the order published once for both, not once for the fill and again for the state.
   */
  applyFill(f: VenueFill, state?: VenueOrderState): boolean {
    const sameOrder = state !== undefined && state.orderId === f.orderId;
    if (this.fills.isBooked(f.fillId) || this.finished.isForgotten(f.orderId)) {
      if (state !== undefined) this.applyState(state);
      return false;
    }
    const found = this.resolve(f.orderId, f.tag, undefined, undefined, f.side, undefined);
    const rec = found === AMBIGUOUS ? undefined : found;
    if (!rec) {
      this.orphanFills.park(f.orderId, f);
      if (state !== undefined) this.applyState(state);
      return false;
    }
    const linked = this.link(rec, f.orderId);
    const before = rec.snapshot;
    const booked = this.fills.book(rec, f) > 0;
    if (sameOrder) mergeState(rec, state);
    if (booked || (sameOrder && differs(rec, before))) this.publish(rec);
    if (linked) this.drainOrphans(f.orderId);
    if (state !== undefined && !sameOrder) this.applyState(state);
    return booked;
  }

  /** Counts one more modification spent on an order (returns the new count). */
  noteModification(tag: string): number {
    const rec = this.records.get(tag);
    if (!rec) return 0;
    rec.modifications++;
    this.publish(rec);
    return rec.modifications;
  }

  /** Restores a persisted modification count (after a restart). */
  setModifications(tag: string, n: number): void {
    const rec = this.records.get(tag);
    if (rec && n > rec.modifications) rec.modifications = n;
  }

  /** Applies a modification the venue accepted (its own update may come later or never). */
  modified(tag: string, change: { qty?: number; limitPrice?: Paise; triggerPrice?: Paise }): void {
    const rec = this.records.get(tag);
    if (!rec || isTerminalStatus(rec.status)) return;
    if (change.qty !== undefined) rec.qty = change.qty;
    if (change.limitPrice !== undefined) rec.limitPrice = change.limitPrice;
    if (change.triggerPrice !== undefined) rec.triggerPrice = change.triggerPrice;
    rec.fieldsTs = this.clock.now();
    this.publish(rec);
  }

  /**
   * Current state by tag, following cancel-and-replace to the live order. An order that finished
   * during the current session (IST day) answers with its last, terminal snapshot even after it
   * was forgotten to bound memory.
   */
  get(tag: string): OrderSnapshot | undefined {
    let last: OrderSnapshot | undefined;
    let t: string | undefined = tag;
    for (let i = 0; t !== undefined && i < 100; i++) {
      const rec: OrderRecord | undefined = this.records.get(t);
      const fin: FinalSnapshot | undefined = rec ? undefined : this.finished.sessionFinal(t);
      const snap = rec?.snapshot ?? fin?.snapshot;
      if (!snap) break;
      last = snap;
      t = rec ? rec.replacedBy : fin?.replacedBy;
    }
    return last;
  }

  /** Exactly this record, without following replacements (terminal snapshots of the session included). */
  getExact(tag: string): OrderSnapshot | undefined {
    return this.records.get(tag)?.snapshot ?? this.finished.sessionFinal(tag)?.snapshot;
  }

  tagOfOrderId(orderId: string): string | undefined {
    return this.byOrderId.get(orderId)?.tag;
  }

  modifications(tag: string): number {
    return this.records.get(tag)?.modifications ?? 0;
  }

  openCount(): number {
    // An auto-sliced order counts as its slices (the orders the venue holds): see isWorkingEntry.
    return this.openEntries;
  }

  /** Remaining quantity of working orders on one side of an instrument (smart legs excluded: they only ever reduce). */
  workingQty(instrument: string, side: Side): number {
    let q = 0;
    const open = this.openIn.get(instrument);
    if (open === undefined) return 0;
    for (const r of open) {
      if (r.side === side && isWorkingEntry(r)) q += r.qty - Math.max(r.fillQty, r.reportedFilled);
    }
    return q;
  }

  /**
   * Working orders, optionally of one strategy and/or instrument. An auto-sliced order is listed
   * as the one order asked for, not as its slices (cancelling it cancels them).
   */
  openOrders(strategyId?: string, instrument?: string): OrderSnapshot[] {
    const out: OrderSnapshot[] = [];
    const open = instrument === undefined ? this.open : this.openIn.get(instrument);
    if (open === undefined) return out;
    for (const r of open) {
      if (r.sliceOf !== undefined) continue;
      if (strategyId === undefined || r.strategyId === strategyId) out.push(r.snapshot);
    }
    return out;
  }

  /**
   * Sets the aggregate state of an auto-sliced order (auto-slice.ts) and sums its slices' figures:
   * filled as reported, filled as booked (so it is `settling` while any slice is) and the booked
   * value. Its fills are the slices' own, booked there; published when it changed.
   */
  setSliced(tag: string, slices: readonly string[], status: OrderStatus, reason: string | undefined): void {
    const rec = this.records.get(tag);
    // A final aggregate still takes its slices' late fills (while it is settling), nothing else.
    if (!rec || rec.slices === undefined || (isTerminalStatus(rec.status) && rec.reportedFilled <= rec.fillQty)) return;
    let booked = 0;
    let reported = 0;
    let value = 0;
    for (const t of slices) {
      const s = this.records.get(t);
      if (s) {
        booked += s.fillQty;
        reported += Math.max(s.fillQty, s.reportedFilled);
        value += s.fillValue;
      } else {
        const snap = this.finished.sessionFinal(t)?.snapshot;
        booked += snap?.filledQty ?? 0;
        reported += snap?.filledQty ?? 0;
        value += snap?.filledValue ?? 0;
      }
    }
    rec.status = status;
    rec.fillQty = booked;
    rec.reportedFilled = reported;
    rec.fillValue = value;
    rec.avgPrice = booked > 0 ? value / booked : undefined;
    rec.reason = reason;
    if (differs(rec, rec.snapshot)) this.publish(rec);
  }

  all(): OrderSnapshot[] {
    return [...this.records.values()].map((r) => r.snapshot);
  }

  /** Whether any order's reported filled quantity runs ahead of its fills (O(1)). */
  hasFillGaps(): boolean {
    return this.fills.hasGaps();
  }

  /** Orders whose reported filled quantity runs ahead of the fills received. */
  fillGaps(): FillGap[] {
    return this.fills.list();
  }

  /**
   * Orders whose fills are still being read (reported filled ahead of booked), optionally of one
   * strategy and/or instrument: working or already terminal at the venue.
   */
  settling(strategyId?: string, instrument?: string): OrderSnapshot[] {
    return this.fills.settling(strategyId, instrument);
  }

  /** Whether any order in the instrument (any strategy) is settling: O(orders with gaps), usually 0. */
  settlingIn(instrument: string): string | undefined {
    return this.fills.settlingIn(instrument);
  }

  /**
   * Signed quantity the venue reports filled that is not booked yet (BUY positive), in one
   * instrument, optionally of one strategy: what the position will move by once it settles.
   */
  unbookedQty(instrument: string, strategyId?: string): number {
    return this.fills.unbookedQty(instrument, strategyId);
  }

  /** Books a synthetic fill closing a gap the venue could not explain (value from the reported average). */
  closeGapSynthetic(tag: string): boolean {
    const r = this.records.get(tag);
    const f = r && this.fills.syntheticFill(r, this.clock.now());
    return f !== undefined && this.applyFill(f);
  }

  /** Venue order ids seen on updates we could not match to any order of ours. */
  orphanIds(): string[] {
    return [...new Set([...this.orphanStates.ids(), ...this.orphanFills.ids()])];
  }

  /** FinishedOrders hook: a finished order waits while fills are owed or its smart parent is live. */
  mayForget(rec: OrderRecord): boolean {
    const parent = rec.parentTag !== undefined ? this.records.get(rec.parentTag) : undefined;
    return !(this.fills.owes(rec) || (parent && !isTerminalStatus(parent.status)));
  }

  /** FinishedOrders hook: drops a forgotten order from every index; true when it was the record under its tag. */
  dropRecord(rec: OrderRecord): boolean {
    const current = this.records.get(rec.tag) === rec;
    if (current) this.records.delete(rec.tag);
    this.fills.forget(rec);
    const root = rec.parentTag ?? rec.tag;
    if (this.smartParents.has(root) && !this.records.has(root) && !this.records.has(legTag(root, 'stopLoss')) && !this.records.has(legTag(root, 'target'))) {
      this.smartParents.delete(root);
    }
    if (rec.orderId !== undefined) this.byOrderId.delete(rec.orderId);
    return current;
  }

  /**
   * Forgets the orders that finished before `before` (the start of the trading day, at the daily
   * reconcile): a daemon running for days keeps only the current day's finished orders, which
   * `get` still answers for. Orders that owe fills or belong to a live smart order wait. The venue
   * ids of forgotten orders are remembered (so the book's records of them are ignored, not adopted
   * again) for as long as `listed` says the venue's order book still shows them; without `listed`
   * they all stay. Returns how many orders were forgotten.
   */
  forgetFinishedBefore(before: number, listed?: (orderId: string) => boolean): number {
    return this.finished.forgetBefore(before, listed);
  }

  /** Whether the order's reported filled quantity runs ahead of its fills (fills still owed). */
  owesFills(tag: string): boolean {
    const r = this.records.get(tag);
    return r !== undefined && this.fills.owes(r);
  }

  /** Orders held in memory: working and finished (for checks and figures). */
  size(): number {
    return this.records.size;
  }

  /**
   * The record a venue id belongs to: by linked id, else by tag (and leg). For the tag of a smart
   * parent without leg information the answer may be AMBIGUOUS (see the header: smart legs); the
   * caller then parks the update instead of guessing.
   */
  private resolve(
    orderId: string,
    tag: string | undefined,
    leg: SmartLegName | undefined,
    parentOrderId: string | undefined,
    side: Side | undefined,
    triggerPrice: Paise | undefined,
  ): OrderRecord | typeof AMBIGUOUS | undefined {
    const byId = this.byOrderId.get(orderId);
    if (byId) return byId;
    if (leg && leg !== 'entry') {
      if (tag !== undefined) {
        const r = this.records.get(legTag(tag, leg));
        if (r) return r;
      }
      if (parentOrderId !== undefined) {
        const p = this.byOrderId.get(parentOrderId);
        if (p) return this.records.get(legTag(p.tag, leg));
      }
      return undefined;
    }
    if (tag === undefined) return undefined;
    const r = this.records.get(tag);
    if (!r || leg === 'entry' || !this.smartParents.has(tag)) return r;
    const legs = this.legsOf(r);
    if (legs.length === 0) return r;
    // A smart parent's tag without leg information.
    if (side !== undefined && side === r.side) return r;
    if (side === undefined && r.orderId === undefined) return AMBIGUOUS;
    // The legs' side, or an id other than the parent's: one of the legs not yet linked.
    let fits = legs.filter((l) => l.orderId === undefined);
    if (fits.length > 1 && triggerPrice !== undefined) fits = fits.filter((l) => l.triggerPrice === triggerPrice);
    if (fits.length === 1) return fits[0];
    this.log.debug({ tag, orderId }, 'execution: update for a smart order that names no leg; parked until the leg id is known');
    return AMBIGUOUS;
  }

  /** The leg records of a smart parent (none for any other order). */
  private legsOf(parent: OrderRecord): OrderRecord[] {
    const out: OrderRecord[] = [];
    for (const leg of ['stopLoss', 'target'] as const) {
      const l = this.records.get(legTag(parent.tag, leg));
      if (l && l.parentTag === parent.tag) out.push(l);
    }
    return out;
  }

  private adopt(s: VenueOrderState): OrderRecord | undefined {
    if (s.tag === undefined || !(this.options.isOurTag?.(s.tag) ?? false)) return undefined;
    const init = this.onUnknownTagged(s);
    if (!init || this.records.has(init.tag)) return undefined;
    this.create(init);
    return this.records.get(init.tag);
  }

  /**
   * Links a venue id to a record; true when that is news (the caller publishes and drains orphans).
   * The live order stream names an order by the bare digits of its id (`123` for `DRV-123`,
   * wire-gaps): the two spellings are one order, and the full one becomes the order's id (trades
   * and the book are read by it), both staying linked.
   */
  private link(rec: OrderRecord, orderId: string): boolean {
    if (rec.orderId === orderId || this.byOrderId.get(orderId) === rec) return false;
    if (rec.orderId === undefined) rec.orderId = orderId;
    else if (sameVenueOrder(rec.orderId, orderId)) {
      if (isBareId(rec.orderId)) rec.orderId = orderId;
    } else this.log.warn({ tag: rec.tag, had: rec.orderId, got: orderId }, 'execution: a second venue id for one order; keeping both links');
    this.byOrderId.set(orderId, rec);
    return true;
  }

  private drainOrphans(orderId: string): void {
    const states = this.orphanStates.take(orderId);
    const fills = this.orphanFills.take(orderId);
    for (const s of states ?? []) this.applyState(s);
    for (const f of fills ?? []) this.applyFill(f);
  }

  private addOpen(rec: OrderRecord): void {
    this.open.add(rec);
    const inInstrument = this.openIn.get(rec.instrument);
    if (inInstrument) inInstrument.add(rec);
    else this.openIn.set(rec.instrument, new Set([rec]));
    if (isWorkingEntry(rec)) this.openEntries++;
  }

  private removeOpen(rec: OrderRecord): void {
    if (!this.open.delete(rec)) return;
    const inInstrument = this.openIn.get(rec.instrument);
    inInstrument?.delete(rec);
    if (inInstrument?.size === 0) this.openIn.delete(rec.instrument);
    if (isWorkingEntry(rec)) this.openEntries--;
  }

  private publish(rec: OrderRecord): void {
    const snap = snapshotOf(rec);
    rec.snapshot = snap;
    const terminal = isTerminalStatus(rec.status);
    if (terminal) this.removeOpen(rec);
    this.fills.track(rec);
    if (terminal && !rec.evictable) this.finished.add(rec);
    this.bus.publish({ type: 'order', ts: this.clock.now(), order: snap });
  }
}

/**
 * Takes a venue state's news into a record (applyState's merge, without the lookups and the
 * publishing): price and quantity fields only from a state at least as fresh as the last taken,
 * modifications and reported fills only upwards, the status by the monotonic merge rule.
 */
function mergeState(rec: OrderRecord, s: VenueOrderState): void {
  if (s.ts >= rec.fieldsTs && !isTerminalStatus(rec.status)) {
    rec.fieldsTs = s.ts;
    if (s.qty !== undefined && s.qty > 0) rec.qty = s.qty;
    if (s.limitPrice !== undefined) rec.limitPrice = s.limitPrice;
    if (s.triggerPrice !== undefined) rec.triggerPrice = s.triggerPrice;
  }
  if (s.modifications !== undefined && s.modifications > rec.modifications) rec.modifications = s.modifications;
  if (s.filledQty !== undefined && s.filledQty > rec.reportedFilled) {
    rec.reportedFilled = s.filledQty;
    if (s.avgPrice !== undefined) rec.avgPrice = s.avgPrice;
  }
  const merged = mergeStatus(rec.status, s.status);
  if (merged !== rec.status) {
    rec.status = merged;
    if (s.reason !== undefined) rec.reason = s.reason;
  }
  if (s.venueStatus !== undefined && !isTerminalStatus(rec.status)) rec.venueStatus = s.venueStatus;
  else if (s.venueStatus !== undefined && merged === s.status) rec.venueStatus = s.venueStatus;
  rec.status = statusForFill(rec.status, Math.max(rec.reportedFilled, rec.fillQty), rec.qty);
}

function isBareId(id: string): boolean {
  return /^\d+$/.test(id);
}

/** `123` and `DRV-123` (a bare id and a full one ending in its digits) name one venue order. */
export function sameVenueOrder(a: string, b: string): boolean {
  if (a === b) return true;
  const [bare, full] = isBareId(a) ? [a, b] : isBareId(b) ? [b, a] : [undefined, undefined];
  return bare !== undefined && full !== undefined && !isBareId(full) && full.endsWith(bare) && /[^0-9]$/.test(full.slice(0, full.length - bare.length));
}

/**
 * An order the venue holds as an entry: not a smart order's stop-loss or target leg, and not an
 * auto-sliced order (its slices are the orders the venue holds, and count instead). A record's
 * instrument, leg and slicing never change, so the counts kept by addOpen/removeOpen stay exact.
 */
function isWorkingEntry(r: OrderRecord): boolean {
  return (r.leg === undefined || r.leg === 'entry') && r.slices === undefined;
}
