/**
 * Freeze limits of NSE stock futures and options, dated. NSE publishes them per stock in its file
 * `qtyfreeze` and revises them often, so they are not packaged data: the user gives tarang the day's
 * file (`tarang rules import-freeze FILE --as-of YYYY-MM-DD`), which is checked (qty-freeze-file.ts)
 * and stored as `<dir>/<YYYY-MM-DD>.csv`, as downloaded. Each stored file is a revision in force
 * from its date until the next one, like the revisions of config/market-rules/; before the first
 * (or with none) no stock limit is known and stock orders are not checked against one.
 *
 * `<dir>` is `<state dir>/market-rules/stock-freeze` (`~/.tarang`, `$TARANG_HOME`, or the daemon's
 * `stateDir`). One reader per process serves the simulator, risk, execution and the backtest; it
 * lists the folder again when the folder's modification time changes (a file imported while a
 * daemon runs is seen by its next order) and parses a revision once, when an order first needs it.
 * File systems stamp times by the kernel's tick, so two changes within one tick look like one: an
 * import therefore changes the folder once, renaming a file written next to it (`stageFile`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { defaultStateDir } from '../../core/state-dir.js';
import { inForce, isoDate } from './dated.js';
import { parseQtyFreeze } from './qty-freeze-file.js';

/** A stored revision's file name: the day it takes effect. */
export const REVISION_FILE = /^(\d{4}-\d{2}-\d{2})\.csv$/;

/** Where imported qtyfreeze files are kept under a state folder. */
export function stockFreezeDir(stateDir: string = defaultStateDir()): string {
  return join(stateDir, 'market-rules', 'stock-freeze');
}

/**
 * Where an import writes a revision before renaming it into the folder: beside the folder, not in
 * it, so the folder changes once (the rename) and a reader never sees half a file.
 */
export function stageFile(dir: string, from: string, pid: number): string {
  return join(dir, '..', `.stock-freeze-${from}.${pid}.tmp`);
}

export interface StockFreezeRevision {
  /** `YYYY-MM-DD`: the first trading day it is in force. */
  readonly from: string;
  readonly file: string;
}

export interface StockFreezeTable extends StockFreezeRevision {
  /** Units per order, by underlying symbol (RELIANCE, M&M). */
  readonly limits: ReadonlyMap<string, number>;
}

/** The revisions stored in one folder. */
export class StockFreezeRevisions {
  private listing: readonly StockFreezeRevision[] = [];
  /** The folder's mtime when last listed; `null` before the first listing, undefined when absent. */
  private listedAt: number | undefined | null = null;
  private readonly tables = new Map<string, StockFreezeTable>();

  constructor(readonly dir: string) {}

  /** Oldest first. */
  revisions(): readonly StockFreezeRevision[] {
    this.refresh();
    return this.listing;
  }

  /** The table in force on the IST trading day `date`; undefined before the first revision. */
  inForce(date: string): StockFreezeTable | undefined {
    const rev = inForce(this.revisions(), date);
    if (!rev) return undefined;
    let t = this.tables.get(rev.file);
    if (!t) {
      t = readRevision(rev);
      this.tables.set(rev.file, t);
    }
    return t;
  }

  /** The freeze limit of stock F&O on `symbol` on `date`; undefined when none is known. */
  limit(symbol: string, date: string): number | undefined {
    return this.inForce(date)?.limits.get(symbol);
  }

  private refresh(): void {
    const st = statSync(this.dir, { throwIfNoEntry: false });
    const mtime = st?.mtimeMs;
    if (this.listedAt !== null && mtime === this.listedAt) return;
    this.tables.clear();
    if (!st) {
      this.listing = [];
      this.listedAt = mtime;
      return;
    }
    if (!st.isDirectory()) throw new ConfigError(`${this.dir}: expected the folder of imported stock freeze limits, found a file`, { dir: this.dir });
    const out: StockFreezeRevision[] = [];
    for (const name of readdirSync(this.dir).sort()) {
      const m = REVISION_FILE.exec(name);
      // Anything else (an import's temporary file, a user's note) is not a revision.
      if (!m) continue;
      if (!isoDate.safeParse(m[1]).success) throw new ConfigError(`${join(this.dir, name)}: ${m[1]} is not a calendar date; rename or remove it (revisions are named YYYY-MM-DD.csv)`, { file: name });
      out.push({ from: m[1]!, file: join(this.dir, name) });
    }
    // Only a good listing is kept: a bad folder fails every lookup until it is mended.
    this.listing = out;
    this.listedAt = mtime;
  }
}

function readRevision(rev: StockFreezeRevision): StockFreezeTable {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(rev.file);
  } catch (e) {
    throw new ConfigError(`${rev.file}: cannot read the stock freeze limits in force from ${rev.from}: ${(e as Error).message}`, { file: rev.file });
  }
  return { ...rev, limits: new Map(parseQtyFreeze(bytes, rev.file).map((r) => [r.symbol, r.limit])) };
}

let shared: StockFreezeRevisions | undefined;

/** The process's stock freeze revisions: the folder set by `useStockFreezeDir`, else the default state folder's. */
export function stockFreezeRevisions(): StockFreezeRevisions {
  shared ??= new StockFreezeRevisions(stockFreezeDir());
  return shared;
}

/**
 * Points the process at another folder of revisions (the daemon's `stateDir`, a test's temporary
 * folder); undefined goes back to the default (`$TARANG_HOME`, else ~/.tarang).
 */
export function useStockFreezeDir(dir: string | undefined): void {
  shared = dir === undefined ? undefined : new StockFreezeRevisions(dir);
}
