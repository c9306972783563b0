/**
 * Funds available for new orders, as risk sees them: the venue's last figure less the margin of
 * what was placed since (a local reservation, so a burst of orders between two reads cannot spend
 * the same money twice). Re-read after fills: at most every `fundsRefreshMs` from an asynchronous
 * venue; an in-process venue answers at once and is read lazily, only when risk asks.
 */
import type { Clock } from '../../core/clock.js';
import type { Product, Side } from '../../core/enums.js';
import type { Logger } from '../../core/log.js';
import type { Paise } from '../../core/money.js';
import type { ExecutionConfig } from './config.js';
import type { Portfolio } from './portfolio.js';
import { isPromiseLike, type ExecutionVenue, type VenueFunds, type VenueResult } from './venue.js';

export type MarginOf = (instrument: string, side: Side, qty: number, price: Paise, product: Product) => Paise;

export class Funds {
  private timer: { cancel(): void } | undefined;
  private funds: { available: Paise; at: number } | undefined;
  private reservedSinceFunds: Paise = 0;
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

  /** Blocks the margin of an order that opens exposure until the venue's next funds figure. */
  reserve(instrument: string, side: Side, qty: number, price: Paise | undefined, product: Product): void {
    if (price === undefined || !this.funds) return;
    const net = this.portfolio.netQty(instrument);
    const closing = Math.sign(net) === (side === 'BUY' ? -1 : 1) ? Math.min(qty, Math.abs(net)) : 0;
    if (qty > closing) this.reservedSinceFunds += this.marginOf(instrument, side, qty - closing, price, product);
  }

  close(): void {
    this.timer?.cancel();
  }

  private apply(f: VenueFunds): void {
    this.funds = { available: f.available, at: this.clock.now() };
    this.reservedSinceFunds = 0;
    this.lastRead = this.clock.now();
  }

  private failed(err: unknown): void {
    this.log.warn({ err }, 'execution: could not read funds; keeping the last figure');
  }
}
