/**
 * One month of one series as a Parquet file, through DuckDB. Columns (all integers, exact):
 *
 *   instrument VARCHAR   the series' instrument id
 *   start_ms   BIGINT    the bar's open time, epoch milliseconds (UTC instant; IST = +05:30)
 *   open, high, low, close BIGINT   integer paise
 *   volume     BIGINT    units traded
 *   oi         BIGINT    open interest, NULL when the source has none
 *
 * Rows sorted by start_ms, one per start, zstd-compressed. The columns reach DuckDB through an
 * appender in chunks of 2,048 doubles and are cast to BIGINT in the COPY (exact: checkColumns
 * refused anything but whole numbers below 2^53 first).
 */
import { renameSync } from 'node:fs';
import { CatalogError } from './catalog-error.js';
import type { CandleColumnsIn } from './candle-columns.js';
import { sqlString, type DuckDbSession } from './duckdb-session.js';

const CHUNK = 2048;
const STAGE_COLUMNS = ['start_ms', 'open', 'high', 'low', 'close', 'volume', 'oi'] as const;
export const PARQUET_COLUMNS = ['instrument', ...STAGE_COLUMNS] as const;

export interface MonthRows {
  readonly length: number;
  readonly start: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly close: Float64Array;
  readonly volume: Float64Array;
  readonly oi: Float64Array | undefined;
}

/**
 * Writes rows [from, to) of `cols` as the Parquet file `file` (atomically: a temp file renamed
 * into place). With `mergeWith`, rows of that existing file whose start the new rows lack are kept.
 */
export async function writeMonth(db: DuckDbSession, file: string, instrument: string, cols: CandleColumnsIn, from: number, to: number, mergeWith?: string): Promise<void> {
  const conn = await db.connection();
  const { DOUBLE, DuckDBDataChunk } = await import('@duckdb/node-api');
  await db.run(`CREATE OR REPLACE TEMP TABLE stage (${STAGE_COLUMNS.map((c) => `"${c}" DOUBLE`).join(', ')})`, `staging ${file}`);
  const app = await conn.createAppender('stage');
  const arrays = [cols.start, cols.open, cols.high, cols.low, cols.close, cols.volume, cols.oi];
  for (let a = from; a < to; a += CHUNK) {
    const n = Math.min(CHUNK, to - a);
    const chunk = DuckDBDataChunk.create(STAGE_COLUMNS.map(() => DOUBLE), n);
    arrays.forEach((col, j) => chunk.setColumnValues(j, col ? Array.from(col.subarray(a, a + n)) : new Array<null>(n).fill(null)));
    app.appendDataChunk(chunk);
  }
  app.flushSync();
  app.closeSync();
  if (mergeWith) {
    await db.run(
      `INSERT INTO stage SELECT ${STAGE_COLUMNS.map((c) => `"${c}"::DOUBLE`).join(', ')} FROM read_parquet(${sqlString(mergeWith)}) WHERE start_ms NOT IN (SELECT start_ms FROM stage)`,
      `catalog partition ${mergeWith}`,
    );
  }
  const tmp = `${file}.${process.pid}.tmp`;
  const select = [`${sqlString(instrument)} AS instrument`, ...STAGE_COLUMNS.map((c) => `"${c}"::BIGINT AS "${c}"`)].join(', ');
  await db.run(`COPY (SELECT ${select} FROM stage ORDER BY start_ms) TO ${sqlString(tmp)} (FORMAT parquet, COMPRESSION zstd)`, `writing ${file}`);
  renameSync(tmp, file);
  await db.run('DROP TABLE stage', `staging ${file}`);
}

/** Decodes a month's Parquet file (the slow path, when its column image is missing or stale). */
export async function readMonth(db: DuckDbSession, file: string): Promise<MonthRows> {
  const what = `catalog partition ${file}`;
  const r = await db.run(`SELECT ${STAGE_COLUMNS.map((c) => `"${c}"::DOUBLE AS "${c}"`).join(', ')} FROM read_parquet(${sqlString(file)}) ORDER BY start_ms`, what);
  const columns = r.getColumnsJS() as Array<Array<number | null>>;
  const n = r.currentRowCount;
  const out = STAGE_COLUMNS.map(() => new Float64Array(n));
  let anyOi = false;
  columns.forEach((values, j) => {
    const dst = out[j]!;
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === null || v === undefined) {
        if (STAGE_COLUMNS[j] !== 'oi') throw new CatalogError(`${what}: ${STAGE_COLUMNS[j]} is NULL in row ${i + 1}`, { file, row: i + 1 });
        continue;
      }
      if (STAGE_COLUMNS[j] === 'oi') anyOi = true;
      dst[i] = v;
    }
  });
  const [start, open, high, low, close, volume, oi] = out as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  return { length: n, start, open, high, low, close, volume, oi: anyOi ? oi : undefined };
}
