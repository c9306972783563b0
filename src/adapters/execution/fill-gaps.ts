/**
 * Fill-gap recovery. The venue may report more filled quantity than the fills received (a stream
 * with cumulative quantities only, or a lost fill): the order's trades are fetched at once (one
 * fetch in flight per order), and checked again after `fillGapMs`; a gap the venue still cannot
 * explain then becomes a synthetic fill at the reported average price (marked `synthetic:` in its
 * fill id), so positions never lag what the venue says was filled.
 */
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import type { ExecutionConfig } from './config.js';
import type { Funds } from './funds.js';
import type { OrderStateMachine } from './order-state-machine.js';
import { venueValue, type ExecutionVenue, type VenueFill } from './venue.js';
import type { WriteTracker } from './write-tracker.js';

export class FillGaps {
  private timer: { cancel(): void } | undefined;
  private closed = false;
  /** Tags whose trades are being fetched to close a fill gap. */
  private readonly fetching = new Set<string>();

  constructor(
    private readonly clock: Clock,
    private readonly venue: ExecutionVenue,
    private readonly orders: OrderStateMachine,
    private readonly cfg: ExecutionConfig,
    private readonly funds: Funds,
    private readonly tracker: WriteTracker,
    private readonly log: Logger,
  ) {}

  /** After a fill was booked: a gap check if one is open, and the next funds read. */
  afterFill(): void {
    this.arm();
    this.funds.afterFill();
  }

  /** The venue reports a gap: fetch the trades of every order that has one, and check again later. */
  onGap(): void {
    for (const g of this.orders.fillGaps()) {
      const id = g.orderId;
      if (!id || this.fetching.has(g.tag)) continue;
      this.fetching.add(g.tag);
      this.tracker.begin();
      venueValue(this.venue.trades(id))
        .then((fills) => {
          let booked = false;
          for (const f of fills) booked = this.orders.applyFill(f) || booked;
          if (booked) this.afterFill();
        })
        .catch((err: unknown) => this.log.warn({ err, tag: g.tag }, 'execution: could not fetch trades for a fill gap; will retry'))
        .finally(() => {
          this.fetching.delete(g.tag);
          this.tracker.end();
          this.tracker.checkIdle();
        });
    }
    this.arm();
  }

  close(): void {
    this.closed = true;
    this.timer?.cancel();
    this.timer = undefined;
  }

  /** Retries gaps that persist for `fillGapMs`; books a synthetic fill as a last resort. */
  private arm(): void {
    if (this.timer || this.closed || !this.orders.hasFillGaps()) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.closeGaps();
    }, this.cfg.fillGapMs);
  }

  /**
   * The synthetic fill is for a venue that answered and still cannot list the fills it reported:
   * while its trades cannot be read at all (timeouts, 5xx), the order stays settling (its
   * instrument held to reducing intents) and is read again later, so a fill is never booked
   * from a guess that the real one would then double.
   */
  private async closeGaps(): Promise<void> {
    for (const g of this.orders.fillGaps()) {
      if (!g.orderId) continue;
      let read = false;
      try {
        const fills: readonly VenueFill[] = await venueValue(this.venue.trades(g.orderId));
        read = true;
        for (const f of fills) this.orders.applyFill(f);
      } catch (err) {
        this.log.warn({ err, tag: g.tag }, 'execution: could not fetch trades for a fill gap; the order stays settling and is read again');
      }
      if (read && this.orders.fillGaps().some((x) => x.tag === g.tag) && this.orders.closeGapSynthetic(g.tag)) {
        this.log.warn({ tag: g.tag }, 'execution: venue reported fills it could not list; booked a synthetic fill at its average price');
      }
    }
    this.arm();
  }
}
