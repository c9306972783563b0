/**
 * Records the live market's ticks into today's 1-minute bars, so the historical endpoints can
 * answer today from what clients actually saw (a `LiveMinuteSource`). The server feeds it every
 * tick it publishes; bars are kept for the current IST day only and dropped when the day changes.
 * A cap on tracked instruments bounds memory when the whole universe ticks.
 */
import { bucketStart } from '../../../core/candles.js';
import { ConfigError } from '../../../core/errors.js';
import type { Paise } from '../../../core/money.js';
import { istDate } from '../../../core/time.js';
import type { Bar, LiveMinuteSource } from './types.js';

export interface RecordedTick {
  readonly instrument: string;
  readonly ts: number;
  readonly ltp: Paise;
  /** Cumulative day volume, when the feed carries it. */
  readonly volume?: number;
  readonly oi?: number;
}

interface Series {
  readonly bars: { start: number; open: Paise; high: Paise; low: Paise; close: Paise; volume: number; oi?: number }[];
  lastCumVolume: number | undefined;
}

export class MinuteBarRecorder implements LiveMinuteSource {
  private day: string | undefined;
  private readonly series = new Map<string, Series>();

  /** `maxInstruments`: instruments tracked per day; ticks of further ones are ignored (default 5,000). */
  constructor(private readonly maxInstruments = 5000) {
    if (!Number.isSafeInteger(maxInstruments) || maxInstruments < 1) throw new ConfigError(`MinuteBarRecorder: maxInstruments must be a positive integer, got ${maxInstruments}`, { maxInstruments });
  }

  record(t: RecordedTick): void {
    const date = istDate(t.ts);
    if (date !== this.day) {
      this.day = date;
      this.series.clear();
    }
    let s = this.series.get(t.instrument);
    if (!s) {
      if (this.series.size >= this.maxInstruments) return;
      s = { bars: [], lastCumVolume: undefined };
      this.series.set(t.instrument, s);
    }
    const start = bucketStart(t.ts, '1minute');
    const traded = t.volume !== undefined && s.lastCumVolume !== undefined ? Math.max(0, t.volume - s.lastCumVolume) : 0;
    if (t.volume !== undefined) s.lastCumVolume = t.volume;
    const last = s.bars[s.bars.length - 1];
    if (last && last.start === start) {
      if (t.ltp > last.high) last.high = t.ltp;
      if (t.ltp < last.low) last.low = t.ltp;
      last.close = t.ltp;
      last.volume += traded;
      if (t.oi !== undefined) last.oi = t.oi;
      return;
    }
    if (last && start < last.start) return; // out-of-order tick from an earlier minute: ignore
    s.bars.push({ start, open: t.ltp, high: t.ltp, low: t.ltp, close: t.ltp, volume: traded, ...(t.oi !== undefined ? { oi: t.oi } : {}) });
  }

  minuteBars(scripCode: string, untilMs: number): readonly Bar[] | undefined {
    if (this.day !== istDate(untilMs)) return undefined;
    const s = this.series.get(scripCode);
    if (!s) return undefined;
    const out: Bar[] = [];
    for (const b of s.bars) if (b.start < untilMs) out.push({ ...b });
    return out;
  }

  /** Instruments with bars today. */
  get size(): number {
    return this.series.size;
  }
}
