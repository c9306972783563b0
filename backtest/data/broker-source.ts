/**
 * Candles from the broker through the adapter: `fetchCandleRange` pages the range by the
 * interval's maximum window, merges, de-duplicates and keeps finished windows in the candle
 * catalog (src/adapters/broker/helpers/candles.ts, src/adapters/catalog). Current instruments are addressed by scrip code
 * (`NSE_2885`, spec 4.2); expired F&O contracts by trading symbol (spec 4.5, 4.9), because
 * exchanges reuse numeric tokens after expiry. Either way the candles go through the same
 * cleaning as a CSV file (finishSeries), so the summary reads the same.
 */
import type { Clock } from '../../src/core/clock.js';
import type { Interval } from '../../src/core/candles.js';
import type { BrokerClient } from '../../src/adapters/broker/client.js';
import { fetchCandleRange } from '../../src/adapters/broker/helpers/candles.js';
import type { WireCandle } from '../../src/adapters/broker/schemas/historical.js';
import type { CandleCatalog } from '../../src/adapters/catalog/index.js';
import { SeriesBuilder, type CandleSeries } from './candle-series.js';
import { BarLabel, SessionFilter, finishSeries } from './clean-series.js';
import { emptyDrops, emptyRepairs, type LoadSummary, type SeriesSummary } from './load-summary.js';

export interface BrokerCandleRequest {
  /** Scrip codes (`NSE_2885`), or trading symbols when `expired`. */
  readonly codes: readonly string[];
  readonly interval: Interval;
  readonly from: number;
  readonly to: number;
  readonly expired?: boolean;
  /** With `expired`: each contract's segment (NFO or BFO); default NFO. */
  readonly segmentOf?: (code: string) => 'NFO' | 'BFO';
  /** The catalog finished windows are kept in and read back from; omit to always download. */
  readonly catalog?: CandleCatalog;
  readonly session?: SessionFilter;
  readonly onProgress?: (code: string, done: number, total: number) => void;
}

/** Wire candles of one instrument -> a cleaned series (exported for tests). */
export function seriesFromWire(
  code: string,
  interval: Interval,
  candles: readonly WireCandle[],
  source: string,
  session: SessionFilter = SessionFilter.AUTO,
): { series: CandleSeries; summary: SeriesSummary; drops: ReturnType<typeof emptyDrops>; repairs: ReturnType<typeof emptyRepairs>; notes: string[] } {
  const b = new SeriesBuilder(code, Math.max(16, candles.length), candles.some((c) => c.oi !== undefined));
  candles.forEach((c, i) => b.push(c.start, c.open, c.high, c.low, c.close, c.volume, c.oi ?? 0, i + 1));
  const drops = emptyDrops();
  const repairs = emptyRepairs();
  const notes: string[] = [];
  const r = finishSeries(b, { source, instrument: code, interval, dateOnly: false, label: BarLabel.START, session }, drops, repairs, notes);
  return { ...r, drops, repairs, notes };
}

export async function loadBrokerCandles(client: BrokerClient, clock: Clock, req: BrokerCandleRequest): Promise<{ series: CandleSeries[]; summary: LoadSummary }> {
  const source = `broker ${req.expired ? 'expired ' : ''}${req.interval} ${req.codes.join(',')}`;
  const series: CandleSeries[] = [];
  const summaries: SeriesSummary[] = [];
  const drops = emptyDrops();
  const repairs = emptyRepairs();
  const notes: string[] = [];
  let rows = 0;
  for (const code of [...req.codes].sort()) {
    const r = await fetchCandleRange(client, clock, {
      code,
      interval: req.interval,
      from: req.from,
      to: req.to,
      ...(req.catalog ? { catalog: req.catalog } : {}),
      ...(req.expired ? { expired: true, ...(req.segmentOf ? { segment: req.segmentOf(code) } : {}) } : {}),
      ...(req.onProgress ? { onProgress: (d: number, t: number) => req.onProgress!(code, d, t) } : {}),
    });
    rows += r.candles.length;
    const s = seriesFromWire(code, req.interval, r.candles, source, req.session);
    series.push(s.series);
    summaries.push(s.summary);
    for (const k of Object.keys(drops) as Array<keyof typeof drops>) drops[k] += s.drops[k];
    for (const k of Object.keys(repairs) as Array<keyof typeof repairs>) repairs[k] += s.repairs[k];
    notes.push(...s.notes, `${code}: ${r.calls} calls, ${r.cacheHits} windows from the cache`);
  }
  return {
    series,
    summary: { source, rows, candles: series.reduce((a, s) => a + s.length, 0), instruments: summaries, dropped: drops, repaired: repairs, badRows: [], notes },
  };
}
