/**
 * One in-memory DuckDB (`@duckdb/node-api`) per catalog: it writes the Parquet files, decodes
 * them when a month has no column image, and runs `tarang data query`. Opened on first use and
 * closed by `close()`; the module itself (a native library, ~0.2 s of CPU to load) is imported
 * then too, so a backtest that reads only column images never loads it.
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBResultReader } from '@duckdb/node-api';
import { CatalogError } from './catalog-error.js';

export class DuckDbSession {
  private instance: DuckDBInstance | undefined;
  private conn: DuckDBConnection | undefined;

  /** Whether DuckDB was started (a read of current column images never starts it). */
  get opened(): boolean {
    return this.instance !== undefined;
  }

  async connection(): Promise<DuckDBConnection> {
    if (!this.conn) {
      const { DuckDBInstance } = await import('@duckdb/node-api');
      this.instance = await DuckDBInstance.create(':memory:');
      this.conn = await this.instance.connect();
    }
    return this.conn;
  }

  /** Runs SQL; a DuckDB error becomes a CatalogError that says what was being done (`what` names the file). */
  async run(sql: string, what: string): Promise<DuckDBResultReader> {
    const c = await this.connection();
    try {
      return await c.runAndReadAll(sql);
    } catch (e) {
      throw new CatalogError(`${what}: ${(e as Error).message}`, { what }, { cause: e });
    }
  }

  close(): void {
    this.conn?.closeSync();
    this.instance?.closeSync();
    this.conn = undefined;
    this.instance = undefined;
  }
}

/** A string literal for SQL (file paths): single quotes doubled. */
export function sqlString(s: string): string {
  return `'${s.replace(/'/g, "''")}'`;
}
