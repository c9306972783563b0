/**
 * Candles from the catalog (src/adapters/catalog) for a backtest: `--catalog DIR --instrument
 * NSE_1333 [--instrument ...] [--interval] [--from] [--to]`. The catalog holds series that were
 * cleaned when they were imported (data import runs the CSV loader with its options) or
 * downloaded from the broker, so nothing is cleaned again here: the columns are read from each
 * month's column image and used as they are. The summary reports the series the way the CSV
 * loader does (first, last, sessions, short sessions), so a run from the catalog and one from the
 * CSV file it was imported from describe the same candles the same way.
 */
import type { Interval } from '../../src/core/candles.js';
import { isIntraday } from '../../src/core/candles.js';
import { DAY_MS, IST_OFFSET_MS, istDate } from '../../src/core/time.js';
import { CatalogError, type CandleCatalog } from '../../src/adapters/catalog/index.js';
import type { CandleSeries } from './candle-series.js';
import { emptyDrops, emptyRepairs, isoOrUndefined, type LoadSummary, type SeriesSummary } from './load-summary.js';

export interface CatalogRequest {
  readonly instruments: readonly string[];
  /** Needed only when the catalog holds an instrument at several intervals. */
  readonly interval?: Interval;
  /** Candles starting at or after `from` and before `to` (epoch ms). */
  readonly from?: number;
  readonly to?: number;
}

export async function loadCatalogCandles(catalog: CandleCatalog, req: CatalogRequest): Promise<{ series: CandleSeries[]; summary: LoadSummary }> {
  if (req.instruments.length === 0) throw new CatalogError('--catalog: name the series with --instrument ID (tarang data ls lists them)', { catalog: catalog.dir });
  const series: CandleSeries[] = [];
  const summaries: SeriesSummary[] = [];
  for (const id of [...new Set(req.instruments)].sort()) {
    let interval = req.interval;
    if (!interval) {
      const have = catalog.intervalsOf(id);
      if (have.length === 0) throw new CatalogError(`catalog ${catalog.dir} has no candles of ${id} (tarang data ls lists what it has)`, { catalog: catalog.dir, instrument: id });
      if (have.length > 1) throw new CatalogError(`catalog ${catalog.dir} has ${id} at ${have.join(', ')}; pick one with --interval`, { catalog: catalog.dir, instrument: id });
      interval = have[0]!;
    }
    const s = await catalog.read(id, interval, { ...(req.from !== undefined ? { from: req.from } : {}), ...(req.to !== undefined ? { to: req.to } : {}) });
    series.push(s);
    summaries.push(summarizeSeries(s));
  }
  const candles = series.reduce((a, s) => a + s.length, 0);
  return {
    series,
    summary: { source: `catalog ${catalog.dir}`, rows: candles, candles, instruments: summaries, dropped: emptyDrops(), repaired: emptyRepairs(), badRows: [], notes: [] },
  };
}

/**
 * First and last start, sessions (IST days with candles) and short sessions (under half the
 * median bars, intraday only), by the rules of clean-series.ts's step 6.
 */
export function summarizeSeries(s: CandleSeries): SeriesSummary {
  const n = s.length;
  const start = s.start;
  const perDay: number[] = [];
  const days: number[] = [];
  // The starts are sorted: each IST day is one run. Most sessions have as many bars as the one
  // before, so that guess is checked first (two reads); otherwise a binary search finds the next
  // day's first bar. Cheap enough that a backtest's one cold read of a million bars does not notice.
  let guess = 1;
  for (let i = 0; i < n; ) {
    const d = Math.floor((start[i]! + IST_OFFSET_MS) / DAY_MS);
    const next = (d + 1) * DAY_MS - IST_OFFSET_MS;
    let end: number;
    const g = i + guess;
    if (g <= n && start[g - 1]! < next && (g === n || start[g]! >= next)) end = g;
    else {
      let lo = i + 1;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (start[mid]! < next) lo = mid + 1;
        else hi = mid;
      }
      end = lo;
    }
    days.push(d);
    perDay.push(end - i);
    guess = end - i;
    i = end;
  }
  const shortSessions: string[] = [];
  if (isIntraday(s.interval) && perDay.length > 2) {
    // A JavaScript array, not an Int32Array: a new ArrayBuffer right after a read's tens of
    // megabytes of columns draws an "external memory pressure" collection from V8 (~15 ms, --trace-gc).
    const sorted = perDay.slice().sort((a, b) => a - b);
    const median = sorted[sorted.length >> 1]!;
    perDay.forEach((c, k) => {
      if (c < median / 2) shortSessions.push(`${istDate(days[k]! * DAY_MS - IST_OFFSET_MS + 12 * 3_600_000)} (${c} bars)`);
    });
  }
  return {
    instrument: s.instrument,
    interval: s.interval,
    candles: n,
    ...(n > 0 ? { first: isoOrUndefined(s.start[0]), last: isoOrUndefined(s.start[n - 1]) } : {}),
    sessions: perDay.length,
    shortSessions,
  };
}
