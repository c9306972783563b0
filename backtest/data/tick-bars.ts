/**
 * Minute bars built from recorded ticks, for the price charts of reports made from a session
 * recording (`tarang report`, `backtest --from-recording`). Bars are 1-minute buckets of the
 * tick's time; volume comes from the feed's cumulative day volume when it gives it. A tick older
 * than an instrument's last bar is left out, so the rows stay sorted.
 */
import type { TickEvent } from '../../src/core/events.js';
import { seriesFromRows, type CandleRow, type CandleSeries } from './candle-series.js';

type Row = { -readonly [K in keyof CandleRow]: CandleRow[K] };

const MINUTE_MS = 60_000;

export class TickBars {
  private readonly bars = new Map<string, { readonly rows: Row[]; vol0: number | undefined }>();

  add(e: TickEvent): void {
    let b = this.bars.get(e.instrument);
    if (!b) this.bars.set(e.instrument, (b = { rows: [], vol0: undefined }));
    const minute = e.ts - (e.ts % MINUTE_MS);
    const bar = b.rows[b.rows.length - 1];
    const vol = e.volume !== undefined && b.vol0 !== undefined ? Math.max(0, e.volume - b.vol0) : 0;
    if (e.volume !== undefined) b.vol0 = e.volume;
    if (bar && bar.start === minute) {
      bar.high = Math.max(bar.high, e.ltp);
      bar.low = Math.min(bar.low, e.ltp);
      bar.close = e.ltp;
      bar.volume += vol;
    } else if (!bar || minute > bar.start) b.rows.push({ start: minute, ts: minute + MINUTE_MS, open: e.ltp, high: e.ltp, low: e.ltp, close: e.ltp, volume: vol });
  }

  has(instrument: string): boolean {
    return this.bars.has(instrument);
  }

  /** One 1-minute series per instrument that ticked. */
  series(): CandleSeries[] {
    const out: CandleSeries[] = [];
    for (const [id, b] of this.bars) if (b.rows.length > 0) out.push(seriesFromRows(id, '1minute', b.rows));
    return out;
  }
}
