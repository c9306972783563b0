/**
 * Funds available for new orders, as risk sees them: the venue's last figure less the margin of
 * what was placed since (a local reservation, so a burst of orders between two reads cannot spend
 * the same money twice).
 *
 * The reservation follows each order's life, by tag: placed -> the margin of the quantity that
 * opens exposure; a fill -> that quantity's share becomes the exact fill's margin; a final state
 * (cancelled, expired, rejected) -> the unfilled share is given back. A funds read replaces them
 * all (the venue's figure then carries the orders and fills). Re-read after fills and after final
 * states: at most every `fundsRefreshMs` from an asynchronous venue; an in-process venue answers at
 * once and is read lazily, only when risk asks.
 */
import type { Clock } from '../../core/clock.js';
import type { Product, Side } from '../../core/enums.js';
import type { Logger } from '../../core/log.js';
import type { Paise } from '../../core/money.js';
import type { ExecutionConfig } from './config.js';
import type { Portfolio } from './portfolio.js';
import { isPromiseLike, type ExecutionVenue, type VenueFunds, type VenueResult } from './venue.js';

export type MarginOf = (instrument: string, side: Side, qty: number, price: Paise, product: Product) => Paise;

/** What one order holds back until the next funds read. */
interface Reservation {
  readonly instrument: string;
  readonly side: Side;
  readonly product: Product;
  readonly price: Paise;
  /** Quantity that opens exposure and has not filled yet. */
  openQty: number;
  /** Margin of the fills booked since the read, at their own prices. */
  filled: Paise;
  /** Current total: margin of `openQty` at `price` + `filled`. */
  amount: Paise;
}

export class Funds {
  private timer: { cancel(): void } | undefined;
  private funds: { available: Paise; at: number } | undefined;
  private reservedSinceFunds: Paise = 0;
  private readonly reservations = new Map<string, Reservation>();
  private lastRead = -Infinity;
  private stale = false;

  constructor(
    private readonly clock: Clock,
    private readonly venue: ExecutionVenue,
    private readonly portfolio: Portfolio,
    private readonly cfg: ExecutionConfig,
    private readonly marginOf: MarginOf,
    private readonly log: Logger,
  ) {}

  /** The venue's last figure less what we placed since; undefined before the first read. */
  available(): Paise | undefined {
    if (this.stale) void this.refresh();
    return this.funds ? this.funds.available - this.reservedSinceFunds : undefined;
  }

  /** Whether a figure has been read (reservations only count against one). */
  known(): boolean {
    return this.funds !== undefined;
  }

  /** After a fill: schedules the next read. */
  afterFill(): void {
    this.scheduleRead();
  }

  /** After an order reached a final state: its unfilled reservation is given back, and funds re-read. */
  afterFinal(tag: string): void {
    const r = this.reservations.get(tag);
    if (r) {
      this.reservedSinceFunds -= r.amount - r.filled;
      r.amount = r.filled;
      r.openQty = 0;
    }
    this.scheduleRead();
  }

  /** A fill of order `tag`: its share of the reservation becomes the fill's own margin. */
  onFill(tag: string, qty: number, price: Paise): void {
    const r = this.reservations.get(tag);
    if (!r || r.openQty <= 0) return;
    const q = Math.min(qty, r.openQty);
    r.openQty -= q;
    r.filled += this.marginOf(r.instrument, r.side, q, price, r.product);
    const amount = (r.openQty > 0 ? this.marginOf(r.instrument, r.side, r.openQty, r.price, r.product) : 0) + r.filled;
    this.reservedSinceFunds += amount - r.amount;
    r.amount = amount;
  }

  private scheduleRead(): void {
    if (this.venue.capabilities.synchronous) {
      this.stale = true;
      return;
    }
    if (this.cfg.fundsRefreshMs === 0) {
      void this.refresh();
      return;
    }
    if (this.timer) return;
    const wait = Math.max(0, this.lastRead + this.cfg.fundsRefreshMs - this.clock.now());
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, wait);
  }

  /** Reads funds from the venue now (synchronously when the venue answers with a value). */
  refresh(): void | Promise<void> {
    this.stale = false;
    let r: VenueResult<VenueFunds>;
    try {
      r = this.venue.funds();
    } catch (err) {
      return this.failed(err);
    }
    if (isPromiseLike(r)) return r.then((f) => this.apply(f), (err: unknown) => this.failed(err));
    this.apply(r);
  }

  /** Blocks the margin of order `tag`'s quantity that opens exposure until the venue's next funds figure. */
  reserve(tag: string, instrument: string, side: Side, qty: number, price: Paise | undefined, product: Product): void {
    if (price === undefined || !this.funds) return;
    const net = this.portfolio.netQty(instrument);
    const closing = Math.sign(net) === (side === 'BUY' ? -1 : 1) ? Math.min(qty, Math.abs(net)) : 0;
    if (qty <= closing) return;
    const amount = this.marginOf(instrument, side, qty - closing, price, product);
    this.reservations.set(tag, { instrument, side, product, price, openQty: qty - closing, filled: 0, amount });
    this.reservedSinceFunds += amount;
  }

  close(): void {
    this.timer?.cancel();
  }

  private apply(f: VenueFunds): void {
    this.funds = { available: f.available, at: this.clock.now() };
    this.reservedSinceFunds = 0;
    // Clearing a Map allocates a new table even when it is empty (an in-process venue is read after every fill).
    if (this.reservations.size > 0) this.reservations.clear();
    this.lastRead = this.clock.now();
  }

  private failed(err: unknown): void {
    this.log.warn({ err }, 'execution: could not read funds; keeping the last figure');
  }
}
