/**
 * A running summary of the session for people: ticks and their rate, orders, fills, denials,
 * open positions and P&L. P&L is computed here from fills and last prices (cash flow + marked
 * open quantity - charges), exact in paise, independently of the engine's portfolio, so the
 * terminal shows what actually traded. Cheap enough to observe every event.
 */
import type { Event, OrderSnapshot } from '../core/events.js';
import { isTerminalStatus, sideSign } from '../core/enums.js';
import type { Paise } from '../core/money.js';

interface Holding {
  netQty: number;
  /** Sum of signed cash flows: sells add, buys subtract (paise). */
  cash: number;
}

export interface StatsSnapshot {
  readonly ticks: number;
  readonly orders: number;
  readonly openOrders: number;
  readonly fills: number;
  readonly denials: number;
  readonly rejected: number;
  readonly alerts: number;
  readonly positions: ReadonlyArray<{ readonly instrument: string; readonly netQty: number; readonly pnl: Paise }>;
  readonly pnl: Paise;
  readonly charges: Paise;
  /** Fills whose venue gave their charges (a broker's trade book often gives none: see `charges`). */
  readonly chargedFills: number;
  readonly lastEventTs: number | undefined;
  readonly lastTickTs: number | undefined;
}

export class SessionStats {
  private tickCount = 0;
  private fillCount = 0;
  private denialCount = 0;
  private alertCount = 0;
  private chargesTotal = 0;
  private chargedFillCount = 0;
  private orderCount = 0;
  private rejectedCount = 0;
  /**
   * Latest state of each order as the bus announced it: working ones, and finished ones until the
   * daily reconcile after the one they were already finished at (see `forgetFinished`).
   */
  private readonly lastOrder = new Map<string, OrderSnapshot>();
  private readonly open = new Set<string>();
  /** Fill ids seen since the last daily reconcile, and in the cycle before it. */
  private seenFills = new Set<string>();
  private olderFills = new Set<string>();
  /** Tags already finished at the last daily reconcile: dropped at the next one. */
  private retiring: string[] = [];
  private readonly holdings = new Map<string, Holding>();
  private readonly last = new Map<string, Paise>();
  private lastTs: number | undefined;
  private lastTick: number | undefined;

  observe(e: Event): void {
    this.lastTs = e.ts;
    switch (e.type) {
      case 'tick':
        this.tickCount++;
        this.lastTick = e.ts;
        if (this.holdings.has(e.instrument)) this.last.set(e.instrument, e.ltp);
        return;
      case 'order': {
        const { tag, status } = e.order;
        const before = this.lastOrder.get(tag);
        if (before === undefined) this.orderCount++;
        if (status === 'REJECTED' && before?.status !== 'REJECTED') this.rejectedCount++;
        this.lastOrder.set(tag, e.order);
        if (isTerminalStatus(status)) this.open.delete(tag);
        else this.open.add(tag);
        return;
      }
      case 'fill': {
        if (this.seenFills.has(e.fillId) || this.olderFills.has(e.fillId)) return;
        this.seenFills.add(e.fillId);
        this.fillCount++;
        let h = this.holdings.get(e.instrument);
        if (!h) this.holdings.set(e.instrument, (h = { netQty: 0, cash: 0 }));
        const s = sideSign(e.side);
        h.netQty += s * e.qty;
        h.cash -= s * e.qty * e.price;
        if (e.charges !== undefined) {
          this.chargesTotal += e.charges;
          this.chargedFillCount++;
        }
        this.last.set(e.instrument, e.price);
        return;
      }
      case 'denied':
        this.denialCount++;
        return;
      case 'alert':
        this.alertCount++;
        return;
      default:
        return;
    }
  }

  /**
   * The last announced state of the orders seen: every working one, and finished ones of the
   * current and previous daily cycle (the daemon's view, for checks and `ctl`).
   */
  orders(): ReadonlyMap<string, OrderSnapshot> {
    return this.lastOrder;
  }

  /**
   * At the daily reconcile: drops the orders that were already finished at the previous one, and
   * fill ids of the cycle before this one, so days of running keep about two days of orders. Counts
   * (orders, fills, rejected) stay cumulative. Returns how many orders were dropped.
   */
  forgetFinished(): number {
    let n = 0;
    for (const tag of this.retiring) {
      const o = this.lastOrder.get(tag);
      if (o && isTerminalStatus(o.status)) {
        this.lastOrder.delete(tag);
        n++;
      }
    }
    this.retiring = [];
    for (const [tag, o] of this.lastOrder) if (isTerminalStatus(o.status)) this.retiring.push(tag);
    this.olderFills = this.seenFills;
    this.seenFills = new Set();
    return n;
  }

  /** Net quantity of an instrument from the fills seen (de-duplicated by fill id). */
  netQty(instrument: string): number {
    return this.holdings.get(instrument)?.netQty ?? 0;
  }

  snapshot(): StatsSnapshot {
    const positions: Array<{ instrument: string; netQty: number; pnl: Paise }> = [];
    let pnl = 0;
    for (const [instrument, h] of this.holdings) {
      const p = h.cash + h.netQty * (this.last.get(instrument) ?? 0);
      pnl += p;
      if (h.netQty !== 0) positions.push({ instrument, netQty: h.netQty, pnl: p });
    }
    return {
      ticks: this.tickCount,
      orders: this.orderCount,
      openOrders: this.open.size,
      fills: this.fillCount,
      denials: this.denialCount,
      rejected: this.rejectedCount,
      alerts: this.alertCount,
      positions,
      pnl: Math.round(pnl - this.chargesTotal),
      charges: this.chargesTotal,
      chargedFills: this.chargedFillCount,
      lastEventTs: this.lastTs,
      lastTickTs: this.lastTick,
    };
  }
}
