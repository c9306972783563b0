/**
 * Bounded memory of finished orders, for the order state machine: long backtests and daemons
 * running for days stay flat. Finished records queue here in the order they finished; past
 * `retain` of them (and at the daily reconcile, everything that finished before the day) the oldest
 * is forgotten, unless the machine says it must wait (fills still owed, a live smart parent): it then
 * goes to the back of the queue so it never holds up the rest.
 *
 * What stays of a forgotten order: its venue id (late updates for it are dropped, not parked or
 * adopted again), and, when it finished on the current IST day, its last snapshot (a strategy may
 * ask about any of its orders of the session), cleared when the day changes.
 */
import type { Clock } from '../../core/clock.js';
import type { OrderSnapshot } from '../../core/events.js';
import { istDayStart } from '../../core/time.js';
import type { OrderRecord } from './order-record.js';

/** What is kept of an order forgotten on the day it finished. */
export interface FinalSnapshot {
  readonly snapshot: OrderSnapshot;
  readonly replacedBy: string | undefined;
}

/**
 * The order state machine's side of forgetting a record: methods of the machine itself (one
 * prototype for every machine, no closure per instance; see BusListener in core/bus/event-bus.ts).
 */
export interface ForgetHooks {
  /** Whether the record may be forgotten now (no fills owed, its smart parent finished). */
  mayForget(rec: OrderRecord): boolean;
  /** Drops the record from the machine's indexes; true when it was the record held under its tag. */
  dropRecord(rec: OrderRecord): boolean;
}

export class FinishedOrders {
  private readonly queue: OrderRecord[] = [];
  private head = 0;
  /** Venue ids of forgotten orders: their late updates are dropped, not parked or adopted. */
  private readonly forgotten = new Set<string>();
  private readonly forgottenOrder: string[] = [];
  /** Last snapshots of orders forgotten on the day they finished; bounded by one day's orders. */
  private readonly finalToday = new Map<string, FinalSnapshot>();
  private finalDay = -1;

  constructor(
    private readonly clock: Clock,
    private readonly retain: number,
    private readonly hooks: ForgetHooks,
  ) {}

  /** A record became terminal (once per record): queue it, forgetting the oldest past `retain`. */
  add(rec: OrderRecord): void {
    rec.evictable = true;
    rec.finishedAt = this.clock.now();
    this.queue.push(rec);
    if (this.queue.length - this.head > this.retain) this.evictOldest();
  }

  isForgotten(orderId: string): boolean {
    return this.forgotten.has(orderId);
  }

  /** The last snapshot of an order forgotten today, by tag. */
  sessionFinal(tag: string): FinalSnapshot | undefined {
    if (this.finalToday.size === 0) return undefined;
    this.today();
    return this.finalToday.get(tag);
  }

  /**
   * Forgets the orders that finished before `before` (see OrderStateMachine.forgetFinishedBefore);
   * forgotten venue ids stay remembered only while `listed` says the venue's book shows them.
   */
  forgetBefore(before: number, listed?: (orderId: string) => boolean): number {
    let n = 0;
    for (let left = this.queue.length - this.head; left > 0; left--) {
      if (this.queue[this.head]!.finishedAt >= before) break;
      if (this.evictOldest()) n++;
    }
    if (listed) {
      let kept = 0;
      for (const id of this.forgottenOrder) {
        if (listed(id)) this.forgottenOrder[kept++] = id;
        else this.forgotten.delete(id);
      }
      this.forgottenOrder.length = kept;
    }
    return n;
  }

  /** Start of the current IST day; drops the previous day's final snapshots when it changes. */
  private today(): number {
    const day = istDayStart(this.clock.now());
    if (day !== this.finalDay) {
      this.finalDay = day;
      this.finalToday.clear();
    }
    return day;
  }

  /** Forgets the oldest finished order; false when it must wait and went to the back of the queue. */
  private evictOldest(): boolean {
    const rec = this.queue[this.head]!;
    this.queue[this.head++] = undefined as unknown as OrderRecord;
    if (this.head > 4096 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (!this.hooks.mayForget(rec)) {
      this.queue.push(rec);
      return false;
    }
    if (this.hooks.dropRecord(rec) && istDayStart(rec.finishedAt) === this.today()) {
      this.finalToday.set(rec.tag, { snapshot: rec.snapshot, replacedBy: rec.replacedBy });
    }
    if (rec.orderId !== undefined) {
      this.forgotten.add(rec.orderId);
      this.forgottenOrder.push(rec.orderId);
      // Bounded memory of forgotten ids (a late update for a very old order is vanishingly rare).
      if (this.forgottenOrder.length > this.retain * 4) {
        for (const id of this.forgottenOrder.splice(0, this.retain * 2)) this.forgotten.delete(id);
      }
    }
    return true;
  }
}
