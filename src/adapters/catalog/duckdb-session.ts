/**
 * One in-memory DuckDB (`@duckdb/node-api`) per catalog: it writes the Parquet files, decodes
 * them when a month has no column image, and runs `tarang data query`. Opened on first use and
 * closed by `close()`, so commands that only read column images never load it.
 */
import { DuckDBInstance, type DuckDBConnection, type DuckDBResultReader } from '@duckdb/node-api';
import { CatalogError } from './catalog-error.js';

export class DuckDbSession {
  private instance: DuckDBInstance | undefined;
  private conn: DuckDBConnection | undefined;

  async connection(): Promise<DuckDBConnection> {
    if (!this.conn) {
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
