/**
 * SQL over the catalog (`tarang data query`). Before the user's SQL runs, DuckDB gets one view
 * per interval the catalog holds and one over all of them:
 *
 *   candles_1minute, candles_5minute, candles_1day, ...   read_parquet('<catalog>/<interval>/*\/*.parquet')
 *   candles                                                 all of them, with an `interval` column
 *
 * Each has the Parquet columns (instrument, start_ms, open, high, low, close, volume, oi; prices in
 * integer paise) plus `time_ist`, the bar's start as a TIMESTAMP in IST wall-clock time. The same
 * globs work in plain DuckDB: `SELECT * FROM read_parquet('~/.tarang/catalog/1minute/*\/*.parquet')`.
 */
import { join } from 'node:path';
import type { CandleCatalog } from './catalog.js';
import { sqlString } from './duckdb-session.js';
import { CatalogError } from './catalog-error.js';

export interface QueryResult {
  readonly columns: readonly string[];
  /** Values as JSON would carry them: numbers (integers within 2^53), strings, booleans, null; timestamps and other types as DuckDB writes them. */
  readonly rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>;
}

/** `candles_<interval>` for each interval present, and `candles` over all of them. */
export function viewNames(catalog: CandleCatalog): string[] {
  const ivs = catalog.intervals();
  return ivs.length ? [...ivs.map((iv) => `candles_${iv}`), 'candles'] : [];
}

export async function queryCatalog(catalog: CandleCatalog, sql: string): Promise<QueryResult> {
  const db = catalog.duckdb;
  const ivs = catalog.intervals();
  // 19,800,000,000 microseconds = 5 h 30 min: the IST offset.
  const timeIst = 'make_timestamp(start_ms * 1000 + 19800000000) AS time_ist';
  for (const iv of ivs) {
    const glob = join(catalog.dir, iv, '*', '*.parquet');
    await db.run(`CREATE OR REPLACE VIEW "candles_${iv}" AS SELECT *, ${timeIst} FROM read_parquet(${sqlString(glob)})`, `catalog ${catalog.dir}: view of ${glob}`);
  }
  if (ivs.length) {
    await db.run(`CREATE OR REPLACE VIEW candles AS ${ivs.map((iv) => `SELECT '${iv}' AS "interval", * FROM "candles_${iv}"`).join(' UNION ALL ')}`, `catalog ${catalog.dir}: view candles`);
  }
  let reader;
  try {
    reader = await (await db.connection()).runAndReadAll(sql);
  } catch (e) {
    const hint = ivs.length ? `views: ${viewNames(catalog).join(', ')}` : `the catalog ${catalog.dir} is empty (tarang data import FILE)`;
    throw new CatalogError(`query failed: ${(e as Error).message}\n(${hint})`, { sql }, { cause: e });
  }
  const columns = reader.deduplicatedColumnNames();
  const rows = reader.getRows().map((r) => r.map(jsonValue));
  return { columns, rows };
}

function jsonValue(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  // Timestamps, dates, decimals, lists: DuckDB's own text (a TIMESTAMP reads `2024-01-01 09:15:00`).
  return String(v);
}
