/**
 * The opening range of one session: the high and low of the candles covering
 * [09:15, 09:15 + rangeMinutes). Complete only when those candles are contiguous from the open:
 * a strategy started mid-session (or a feed that missed the first candle) must not trade a range
 * it did not see whole, so such a day is marked `incomplete` and skipped.
 */
import { SESSION_OPEN_MINUTE, intervalMs, type Interval } from '../../core/candles.js';
import type { CandleEvent } from '../../core/events.js';
import type { Paise } from '../../core/money.js';
import { MINUTE_MS, istDayStart } from '../../core/time.js';

export const RangeStatus = {
  /** Candles of the range window are still coming in. */
  BUILDING: 'building',
  COMPLETE: 'complete',
  /** The window was not seen whole (a gap, or the first candle missing): no trading this day. */
  INCOMPLETE: 'incomplete',
} as const;
export type RangeStatus = (typeof RangeStatus)[keyof typeof RangeStatus];

export interface RangeSnapshot {
  readonly status: RangeStatus;
  readonly high: Paise;
  readonly low: Paise;
  /** Epoch ms at which the range window ends (09:15 + rangeMinutes on that day). */
  readonly end: number;
}

export class OpeningRange {
  private high = -Infinity;
  private low = Infinity;
  private expectedStart: number;
  private statusValue: RangeStatus = RangeStatus.BUILDING;
  readonly end: number;
  private readonly step: number;

  /** `day` is any instant of the session's IST day. */
  constructor(day: number, rangeMinutes: number, interval: Interval) {
    const open = istDayStart(day) + SESSION_OPEN_MINUTE * MINUTE_MS;
    this.expectedStart = open;
    this.end = open + rangeMinutes * MINUTE_MS;
    this.step = intervalMs(interval);
  }

  get status(): RangeStatus {
    return this.statusValue;
  }

  /**
   * Feeds one closed candle of the day. Candles after the window are ignored here; returns the
   * status after the candle.
   */
  add(c: CandleEvent): RangeStatus {
    if (this.statusValue !== RangeStatus.BUILDING) return this.statusValue;
    if (c.start >= this.end) {
      // The window passed without its last candle: the range was not seen whole.
      this.statusValue = RangeStatus.INCOMPLETE;
      return this.statusValue;
    }
    if (c.start !== this.expectedStart) {
      this.statusValue = RangeStatus.INCOMPLETE;
      return this.statusValue;
    }
    if (c.high > this.high) this.high = c.high;
    if (c.low < this.low) this.low = c.low;
    this.expectedStart = c.start + this.step;
    if (this.expectedStart >= this.end) this.statusValue = RangeStatus.COMPLETE;
    return this.statusValue;
  }

  snapshot(): RangeSnapshot {
    return { status: this.statusValue, high: this.high, low: this.low, end: this.end };
  }

  /** Rebuilds a tracker from persisted values (after a restart mid-session). */
  static restore(day: number, rangeMinutes: number, interval: Interval, saved: { status: RangeStatus; high: number; low: number; next: number }): OpeningRange {
    const r = new OpeningRange(day, rangeMinutes, interval);
    r.statusValue = saved.status;
    const sawCandles = saved.next > r.end - rangeMinutes * MINUTE_MS;
    r.high = sawCandles ? saved.high : -Infinity;
    r.low = sawCandles ? saved.low : Infinity;
    r.expectedStart = saved.next;
    return r;
  }

  /** Plain JSON for the strategy's persistent state. */
  toJSON(): { status: RangeStatus; high: number; low: number; next: number } {
    // Infinity is not JSON: an empty range is stored as 0/0, which `status` already disqualifies.
    return {
      status: this.statusValue,
      high: Number.isFinite(this.high) ? this.high : 0,
      low: Number.isFinite(this.low) ? this.low : 0,
      next: this.expectedStart,
    };
  }
}
