/**
 * NSE stock F&O freeze limits for tests: a hand-written file in the format of NSE's qtyfreeze
 * (padded header and symbols, quoted numbers with thousands commas) stored as a dated revision in
 * a temporary folder the process's freeze rule reads (useStockFreezeDir). The NUMBERS ARE
 * ILLUSTRATIVE, chosen to be small multiples of the simulator's lots; they are not NSE's.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stageFile, stockFreezeDir, useStockFreezeDir } from '../../src/risk/rules/stock-freeze.js';

/** Illustrative: RELIANCE 3000 (6 lots of 500 in the simulator), INFY 2000 (5 of 400), and an index row. */
export const ILLUSTRATIVE_QTYFREEZE = ['SYMBOL    ,VOL_FRZ_QTY', 'NIFTY     ,"1,800"', 'RELIANCE  ,"3,000"', 'INFY      ,   2000', 'M&M       ,"4,200"', ''].join('\r\n');

export interface StockFreezeHome {
  /** The state folder (as TARANG_HOME or --state-dir). */
  readonly home: string;
  /** Its stock-freeze folder. */
  readonly dir: string;
  /** Stores `text` as the revision in force from `from`. */
  store(from: string, text?: string): string;
  /** Back to the default folder; removes the temporary one. */
  close(): void;
}

/** A temporary state folder whose stock freeze revisions the process's rule reads. */
export function stockFreezeHome(): StockFreezeHome {
  const home = mkdtempSync(join(tmpdir(), 'tarang-freeze-'));
  // Imports are hours apart in life; in a test two come within one kernel tick, which stamps the
  // folder with the same time. Each store sets the folder's time to its own second.
  let stamp = 1_767_225_600;
  const dir = stockFreezeDir(home);
  useStockFreezeDir(dir);
  return {
    home,
    dir,
    store(from, text = ILLUSTRATIVE_QTYFREEZE) {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${from}.csv`);
      // As tarang rules import-freeze stores it: written beside the folder, renamed in (one change).
      const tmp = stageFile(dir, from, process.pid);
      writeFileSync(tmp, text);
      renameSync(tmp, file);
      stamp += 3600;
      utimesSync(dir, stamp, stamp);
      return file;
    },
    close() {
      useStockFreezeDir(undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}
