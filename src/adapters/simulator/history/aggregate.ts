/** Folds one-minute bars into candles of a longer interval (09:15-anchored buckets, core/candles). */
import type { Interval } from '../../../core/candles.js';
import { bucketStart } from '../../../core/candles.js';
import type { Bar } from './types.js';

/** Bars must be ascending. Each candle is stamped with its bucket's start. */
export function aggregate(bars: readonly Bar[], interval: Interval): Bar[] {
  const out: Bar[] = [];
  let cur: { start: number; open: number; high: number; low: number; close: number; volume: number; oi: number | undefined } | undefined;
  for (const b of bars) {
    const start = bucketStart(b.start, interval);
    if (cur && cur.start === start) {
      if (b.high > cur.high) cur.high = b.high;
      if (b.low < cur.low) cur.low = b.low;
      cur.close = b.close;
      cur.volume += b.volume;
      cur.oi = b.oi;
      continue;
    }
    if (cur) out.push(freeze(cur));
    cur = { start, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume, oi: b.oi };
  }
  if (cur) out.push(freeze(cur));
  return out;
}

function freeze(c: { start: number; open: number; high: number; low: number; close: number; volume: number; oi: number | undefined }): Bar {
  const { oi, ...rest } = c;
  return oi === undefined ? rest : { ...rest, oi };
}
