/**
 * Records the live market's ticks into today's 1-minute bars, so the historical endpoints can
 * answer today from what clients actually saw (a `LiveMinuteSource`). The server feeds it every
 * tick it publishes; bars are kept for the current IST day only and dropped when the day changes.
 * A cap on tracked instruments bounds memory when the whole universe ticks.
 *
 * Storage is columnar per instrument (`MinuteColumns`): a day of 3,000 instruments is about 1.1M
 * bars, which as one object per bar took ~165 bytes each on the heap (~185 MB by the close); as
 * columns it is ~30 bytes a bar.
 */
import { bucketStart } from '../../../core/candles.js';
import { ConfigError } from '../../../core/errors.js';
import type { Paise } from '../../../core/money.js';
import { DAY_MS, istDate, istDayStart } from '../../../core/time.js';
import { MinuteColumns } from './minute-columns.js';
import type { Bar, LiveMinuteSource } from './types.js';

export interface RecordedTick {
  readonly instrument: string;
  readonly ts: number;
  readonly ltp: Paise;
  /** Cumulative day volume, when the feed carries it. */
  readonly volume?: number;
  readonly oi?: number;
}

export class MinuteBarRecorder implements LiveMinuteSource {
  private day: string | undefined;
  /** Epoch ms bounds of `day` (IST), so the hot path compares numbers, not date strings. */
  private dayStart = 0;
  private dayEnd = 0;
  private readonly series = new Map<string, MinuteColumns>();

  /** `maxInstruments`: instruments tracked per day; ticks of further ones are ignored (default 5,000). */
  constructor(private readonly maxInstruments = 5000) {
    if (!Number.isSafeInteger(maxInstruments) || maxInstruments < 1) throw new ConfigError(`MinuteBarRecorder: maxInstruments must be a positive integer, got ${maxInstruments}`, { maxInstruments });
  }

  record(t: RecordedTick): void {
    if (t.ts < this.dayStart || t.ts >= this.dayEnd) this.startDay(t.ts);
    let s = this.series.get(t.instrument);
    if (!s) {
      if (this.series.size >= this.maxInstruments) return;
      s = new MinuteColumns();
      this.series.set(t.instrument, s);
    }
    s.add(bucketStart(t.ts, '1minute'), t.ltp, t.volume, t.oi);
  }

  minuteBars(scripCode: string, untilMs: number): readonly Bar[] | undefined {
    if (this.day !== istDate(untilMs)) return undefined;
    return this.series.get(scripCode)?.bars(untilMs);
  }

  /** Instruments with bars today. */
  get size(): number {
    return this.series.size;
  }

  /** Bars held today, over every instrument. */
  get barCount(): number {
    let n = 0;
    for (const s of this.series.values()) n += s.length;
    return n;
  }

  /**
   * Lets go of the bars of a day that has ended by `now` (the venue calls it at IST midnight), so
   * yesterday's bars are not held overnight (over a weekend, for days) until the next tick.
   */
  release(now: number): void {
    if (this.day !== undefined && now >= this.dayEnd) {
      this.day = undefined;
      this.dayStart = this.dayEnd = 0;
      this.series.clear();
    }
  }

  private startDay(ts: number): void {
    const date = istDate(ts);
    if (date === this.day) return;
    this.day = date;
    this.dayStart = istDayStart(ts);
    this.dayEnd = this.dayStart + DAY_MS;
    this.series.clear();
  }
}
