/**
 * Builds candles from ticks for one (instrument, interval) on 09:15-anchored buckets
 * (src/core/candles.ts). A candle is released only once its bucket has closed: when a tick at or
 * after the bucket's end arrives, or when the clock passes the end (`flush`). Its `ts` is the
 * bucket end (the moment it became known), `start` the bucket open: no look-ahead.
 *
 * Volume: feeds give cumulative day volume per tick; a candle's volume is the increase over the
 * bucket (the last cumulative figure before the bucket is the base). A cumulative figure that
 * goes down means a new day's counter: the base restarts at 0. Ticks without volume add nothing.
 * A tick older than the open bucket (late, out of order) is counted in `late` and ignored: a
 * released candle never changes.
 */
import { bucketEnd, bucketStart, type Interval } from '../candles.js';
import type { CandleEvent, TickEvent } from '../events.js';
import type { Paise } from '../money.js';

export class CandleBuilder {
  private open = false;
  private start = 0;
  private end = 0;
  private o: Paise = 0;
  private h: Paise = 0;
  private l: Paise = 0;
  private c: Paise = 0;
  private volBase: number | undefined;
  private volLast: number | undefined;
  private oi: number | undefined;
  /** Ticks ignored because they belonged to an already released bucket. */
  late = 0;

  constructor(
    readonly instrument: string,
    readonly interval: Interval,
  ) {}

  /** End of the open bucket, or undefined when none is open. */
  get pendingEnd(): number | undefined {
    return this.open ? this.end : undefined;
  }

  /** Feeds a tick; returns the candle it closed, if any. */
  onTick(tick: TickEvent): CandleEvent | undefined {
    const ts = tick.ts;
    let closed: CandleEvent | undefined;
    if (this.open) {
      if (ts >= this.end) closed = this.release();
      else if (ts < this.start) {
        this.late++;
        return undefined;
      }
    } else if (ts < this.end) {
      // A tick for a bucket already released (by the clock): ignore rather than rewrite history.
      this.late++;
      return undefined;
    }
    const px = tick.ltp;
    if (!this.open) {
      this.open = true;
      this.start = bucketStart(ts, this.interval);
      this.end = bucketEnd(this.start, this.interval);
      this.o = this.h = this.l = this.c = px;
      this.volBase = this.volLast;
      this.oi = undefined;
    } else {
      if (px > this.h) this.h = px;
      if (px < this.l) this.l = px;
      this.c = px;
    }
    const v = tick.volume;
    if (v !== undefined) {
      if (this.volLast !== undefined && v < this.volLast) this.volBase = 0;
      if (this.volBase === undefined) this.volBase = v;
      this.volLast = v;
    }
    if (tick.oi !== undefined) this.oi = tick.oi;
    return closed;
  }

  /** Releases the open candle if the clock has reached its end. */
  flush(now: number): CandleEvent | undefined {
    return this.open && now >= this.end ? this.release() : undefined;
  }

  private release(): CandleEvent {
    this.open = false;
    const volume = this.volLast !== undefined && this.volBase !== undefined ? Math.max(0, this.volLast - this.volBase) : 0;
    this.volBase = this.volLast;
    const candle: CandleEvent = {
      type: 'candle',
      ts: this.end,
      instrument: this.instrument,
      interval: this.interval,
      start: this.start,
      open: this.o,
      high: this.h,
      low: this.l,
      close: this.c,
      volume,
      ...(this.oi !== undefined ? { oi: this.oi } : {}),
    };
    return candle;
  }
}
