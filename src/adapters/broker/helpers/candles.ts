/**
 * Historical candles for any range: the range is cut into windows of the interval's maximum
 * range per call (src/core/candles.ts `maxRangeMs`, wire-gaps), fetched, merged, de-duplicated by
 * open time and sorted. Windows wholly in the past go into the candle catalog (Parquet per
 * instrument and month, src/adapters/catalog) and are recorded there as downloaded, so a second
 * run over the same history makes no calls and the candles can be queried and backtested from the
 * catalog directly.
 */
import type { Clock } from '../../../core/clock.js';
import { maxRangeMs, type Interval } from '../../../core/candles.js';
import type { CandleEvent } from '../../../core/events.js';
import { InputException } from '../errors.js';
import type { BrokerClient } from '../client.js';
import type { WireCandle } from '../schemas/historical.js';
import type { CandleCatalog } from '../../catalog/catalog.js';
import { isCovered } from '../../catalog/manifest.js';

export interface CandleRangeOptions {
  readonly code: string;
  readonly interval: Interval;
  /** Inclusive start, epoch ms. */
  readonly from: number;
  /** Exclusive end, epoch ms. */
  readonly to: number;
  /** The catalog finished windows are kept in and read back from; omit to always download. */
  readonly catalog?: CandleCatalog;
  /** Called after each window with (done, total). */
  readonly onProgress?: (done: number, total: number) => void;
  /** Expired contracts are addressed by trading symbol (4.9). */
  readonly expired?: boolean;
  /** The segment of an expired contract (4.9; default NFO): BFO for BSE's (SENSEX, BANKEX). */
  readonly segment?: 'NFO' | 'BFO';
}

export interface CandleRangeResult {
  readonly candles: WireCandle[];
  readonly calls: number;
  readonly cacheHits: number;
}

/** Cuts [from, to) into windows no longer than the interval's maximum range. */
export function candleWindows(interval: Interval, from: number, to: number): Array<[number, number]> {
  if (!(to > from)) throw new InputException(`candles: the range is empty (from ${from} is not before to ${to})`, { field: 'to' });
  const step = maxRangeMs(interval);
  const out: Array<[number, number]> = [];
  for (let s = from; s < to; s += step) out.push([s, Math.min(to, s + step)]);
  return out;
}

/** The candles of [from, to) as the catalog holds them, as wire candles. */
export async function fromCatalog(catalog: CandleCatalog, code: string, interval: Interval, from: number, to: number): Promise<WireCandle[]> {
  const s = await catalog.read(code, interval, { from, to });
  const out: WireCandle[] = new Array<WireCandle>(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = { start: s.start[i]!, open: s.open[i]!, high: s.high[i]!, low: s.low[i]!, close: s.close[i]!, volume: s.volume[i]! };
    out[i] = s.oi ? { ...c, oi: s.oi[i]! } : c;
  }
  return out;
}

/** Puts a finished window's candles in the catalog and records the window as downloaded. */
export async function toCatalog(catalog: CandleCatalog, code: string, interval: Interval, w: [number, number], candles: readonly WireCandle[], source: string): Promise<void> {
  const inWindow = candles.filter((c) => c.start >= w[0] && c.start < w[1]).sort((a, b) => a.start - b.start);
  if (inWindow.length === 0) {
    catalog.markCovered(code, interval, w[0], w[1], source);
    return;
  }
  const col = (f: (c: WireCandle) => number): Float64Array => Float64Array.from(inWindow, f);
  const hasOi = inWindow.some((c) => c.oi !== undefined);
  await catalog.write(
    code,
    interval,
    { length: inWindow.length, start: col((c) => c.start), open: col((c) => c.open), high: col((c) => c.high), low: col((c) => c.low), close: col((c) => c.close), volume: col((c) => c.volume), oi: hasOi ? col((c) => c.oi ?? 0) : undefined },
    { mode: 'merge', source, covered: w },
  );
}

export async function fetchCandleRange(client: BrokerClient, clock: Clock, o: CandleRangeOptions): Promise<CandleRangeResult> {
  const windows = candleWindows(o.interval, o.from, o.to);
  const byStart = new Map<number, WireCandle>();
  let calls = 0;
  let cacheHits = 0;
  let done = 0;
  const now = clock.now();
  for (const w of windows) {
    const cached = o.catalog ? isCovered(o.catalog.manifest(o.code, o.interval)?.covered ?? [], w[0], w[1]) : false;
    let candles: WireCandle[];
    if (cached) {
      candles = await fromCatalog(o.catalog!, o.code, o.interval, w[0], w[1]);
      cacheHits++;
    } else {
      calls++;
      const data = o.expired ? await client.historicalExpired(o.interval, [o.code], w[0], w[1], o.segment) : await client.historical(o.interval, [o.code], w[0], w[1]);
      candles = data[o.code] ?? Object.values(data)[0] ?? [];
      // Only a window that is over is kept: the current one still grows.
      if (o.catalog && w[1] <= now) await toCatalog(o.catalog, o.code, o.interval, w, candles, o.expired ? 'broker expired' : 'broker');
    }
    for (const c of candles) if (c.start >= o.from && c.start < o.to) byStart.set(c.start, c);
    o.onProgress?.(++done, windows.length);
  }
  return { candles: [...byStart.values()].sort((a, b) => a.start - b.start), calls, cacheHits };
}

/** Wire candles as core CandleEvents (`ts` = when known: the next candle's open or `end`). */
export function toCandleEvents(code: string, interval: Interval, candles: readonly WireCandle[], closeOf: (start: number) => number): CandleEvent[] {
  return candles.map((c) => ({
    type: 'candle',
    ts: closeOf(c.start),
    instrument: code,
    interval,
    start: c.start,
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
    volume: c.volume,
    ...(c.oi !== undefined ? { oi: c.oi } : {}),
  }));
}
