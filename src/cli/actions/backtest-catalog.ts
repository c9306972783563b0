/**
 * `tarang backtest --catalog DIR --instrument ID ...`: the candles of a backtest read from the
 * catalog, and the catalog broker downloads are written to (src/adapters/catalog).
 */
import type { Interval } from '../../core/candles.js';
import { CandleCatalog, defaultCatalogDir } from '../../adapters/catalog/index.js';
import { loadCatalogCandles } from '../../../backtest/data/catalog-source.js';
import type { CandleSeries } from '../../../backtest/data/candle-series.js';
import type { LoadSummary } from '../../../backtest/data/load-summary.js';

/** The catalog at `dir`, or the default one (`$TARANG_HOME/catalog`, `~/.tarang/catalog`). */
export function downloadCatalog(dir: string | undefined): CandleCatalog {
  return new CandleCatalog(dir ?? defaultCatalogDir());
}

export async function loadFromCatalog(
  dir: string | undefined,
  instruments: readonly string[],
  interval: Interval | undefined,
  from: number | undefined,
  to: number | undefined,
): Promise<{ series: CandleSeries[]; sources: LoadSummary[] }> {
  const catalog = downloadCatalog(dir);
  try {
    const r = await loadCatalogCandles(catalog, {
      instruments,
      ...(interval ? { interval } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
    });
    return { series: r.series, sources: [r.summary] };
  } finally {
    catalog.close();
  }
}
