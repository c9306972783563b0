/**
 * Fill booking for the order state machine: each fill booked once (by `fillId`), a real fill
 * replacing a synthetic one rather than adding to it, and the orders whose reported filled quantity
 * runs ahead of the fills booked (the gaps the execution engine closes by reading trades, see
 * fill-gaps.ts). The state machine finds the record a fill belongs to and publishes the order's
 * new state; this file decides what the fill adds and answers every question about gaps.
 */
import type { EventBus } from '../../core/bus/event-bus.js';
import type { OrderSnapshot } from '../../core/events.js';
import type { Logger } from '../../core/log.js';
import { statusForFill } from './order-status-merge.js';
import { fillEventOf, type OrderRecord } from './order-record.js';
import type { VenueFill } from './venue.js';

/** Fill ids of fills booked for a gap the venue could not list (see `syntheticFill`). */
const SYNTHETIC = 'synthetic:';

/** One order's reported fills running ahead of its booked ones. */
export interface FillGap {
  readonly tag: string;
  readonly orderId: string | undefined;
  readonly missingQty: number;
  readonly avgPrice: number | undefined;
}

export class FillLedger {
  private readonly seen = new Set<string>();
  /** Records whose reported filled quantity is ahead of their fills (kept incrementally: checked per update). */
  private readonly gaps = new Set<OrderRecord>();

  constructor(
    private readonly bus: EventBus,
    private readonly log: Logger,
  ) {}

  isBooked(fillId: string): boolean {
    return this.seen.has(fillId);
  }

  /**
   * Books `f` on `rec` and publishes its `fill` event; returns the quantity booked: 0 when a
   * synthetic fill had already booked all of it (the synthetic price stands for that quantity).
   */
  book(rec: OrderRecord, f: VenueFill): number {
    this.seen.add(f.fillId);
    rec.fillIds.push(f.fillId);
    let qty = f.qty;
    if (f.fillId.startsWith(SYNTHETIC)) rec.syntheticQty += qty;
    else if (rec.syntheticQty > 0) {
      const absorbed = Math.min(qty, rec.syntheticQty);
      rec.syntheticQty -= absorbed;
      qty -= absorbed;
      this.log.warn({ tag: rec.tag, fillId: f.fillId, absorbed }, 'execution: a real fill arrived for quantity a synthetic fill had booked; booked once (the synthetic price stands for that quantity)');
    }
    if (qty === 0) return 0;
    if (rec.fillQty + qty > rec.qty) {
      this.log.error({ tag: rec.tag, fillId: f.fillId, qty: rec.qty, filled: rec.fillQty + qty }, 'execution: fills exceed the order quantity; booking them anyway (the venue is the truth)');
    }
    rec.fillQty += qty;
    rec.fillValue += qty * f.price;
    rec.status = statusForFill(rec.status, Math.max(rec.reportedFilled, rec.fillQty), rec.qty);
    this.bus.publish(fillEventOf(rec, qty === f.qty ? f : { ...f, qty }));
    return qty;
  }

  /** Keeps the gap set in step with a record's new state (on every published state: O(1)). */
  track(rec: OrderRecord): void {
    if (rec.reportedFilled > rec.fillQty) this.gaps.add(rec);
    else if (this.gaps.size > 0) this.gaps.delete(rec);
  }

  /** Lets go of a forgotten record's fill ids. */
  forget(rec: OrderRecord): void {
    for (const id of rec.fillIds) this.seen.delete(id);
    this.gaps.delete(rec);
  }

  /**
   * The fill closing a record's gap when the venue cannot list it: the missing quantity at the
   * price that makes the booked value match the reported average. Undefined without a gap, an
   * average or a venue id.
   */
  syntheticFill(r: OrderRecord, ts: number): VenueFill | undefined {
    if (r.reportedFilled <= r.fillQty || r.avgPrice === undefined || !r.orderId) return undefined;
    const missing = r.reportedFilled - r.fillQty;
    const value = Math.round(r.avgPrice * r.reportedFilled) - r.fillValue;
    return { fillId: `${SYNTHETIC}${r.orderId}:${r.reportedFilled}`, orderId: r.orderId, tag: r.tag, instrument: r.instrument, side: r.side, qty: missing, price: Math.round(value / missing), ts };
  }

  owes(rec: OrderRecord): boolean {
    return this.gaps.has(rec);
  }

  hasGaps(): boolean {
    return this.gaps.size > 0;
  }

  list(): FillGap[] {
    const out = [];
    for (const r of this.gaps) {
      if (r.reportedFilled > r.fillQty) out.push({ tag: r.tag, orderId: r.orderId, missingQty: r.reportedFilled - r.fillQty, avgPrice: r.avgPrice });
    }
    return out;
  }

  settling(strategyId?: string, instrument?: string): OrderSnapshot[] {
    const out: OrderSnapshot[] = [];
    for (const r of this.gaps) {
      if (r.reportedFilled > r.fillQty && (strategyId === undefined || r.strategyId === strategyId) && (instrument === undefined || r.instrument === instrument)) out.push(r.snapshot);
    }
    return out;
  }

  settlingIn(instrument: string): string | undefined {
    if (this.gaps.size === 0) return undefined;
    for (const r of this.gaps) if (r.instrument === instrument && r.reportedFilled > r.fillQty) return r.tag;
    return undefined;
  }

  unbookedQty(instrument: string, strategyId?: string): number {
    if (this.gaps.size === 0) return 0;
    let q = 0;
    for (const r of this.gaps) {
      if (r.instrument !== instrument || (strategyId !== undefined && r.strategyId !== strategyId) || r.reportedFilled <= r.fillQty) continue;
      q += (r.side === 'BUY' ? 1 : -1) * (r.reportedFilled - r.fillQty);
    }
    return q;
  }
}
