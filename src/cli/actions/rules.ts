/**
 * What `tarang rules import-freeze|ls` do (declared in ../commands/rules.ts).
 *
 * import-freeze checks NSE's qtyfreeze file row by row (a failed download, an HTML page or a
 * workbook, is refused by name) and stores it, as given, as `<state>/market-rules/stock-freeze/
 * <as-of>.csv`: the revision the freeze-quantity rule uses for stock F&O from that day until the
 * next stored one. A different file already stored for the day is kept unless --replace.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { WallClock } from '../../core/clock.js';
import { defaultStateDir } from '../../core/state-dir.js';
import { istDate } from '../../core/time.js';
import { indexDerivativeExchange } from '../../core/instruments.js';
import { isoDate, inForce } from '../../risk/rules/dated.js';
import { freezeRules } from '../../risk/rules/freeze-quantity.js';
import { priceBandRules } from '../../risk/rules/price-bands.js';
import { parseQtyFreeze } from '../../risk/rules/qty-freeze-file.js';
import { StockFreezeRevisions, stageFile, stockFreezeDir } from '../../risk/rules/stock-freeze.js';

export interface RulesFlags {
  stateDir?: string;
  json?: boolean;
}

const dateFlag = (flag: string, text: string): string => {
  if (!isoDate.safeParse(text).success) throw new ConfigError(`--${flag}: expected a calendar date as YYYY-MM-DD, got ${JSON.stringify(text)}`, { flag });
  return text;
};

/** Underlyings whose limits come from config/market-rules/freeze-quantities.yaml, not from NSE's stock file. */
function indexUnderlyings(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(freezeRules().indices)) for (const rev of list) for (const s of Object.keys(rev.limits)) out.add(s);
  return out;
}

export async function importFreeze(file: string, f: RulesFlags & { asOf: string; replace?: boolean }): Promise<void> {
  const asOf = dateFlag('as-of', f.asOf);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new ConfigError(`rules import-freeze: cannot read ${file}: ${(e as Error).message}`, { file });
  }
  const rows = parseQtyFreeze(bytes, file);
  const indices = indexUnderlyings();
  const indexRows = rows.filter((r) => indices.has(r.symbol) || indexDerivativeExchange(r.symbol) !== undefined);
  const stocks = rows.length - indexRows.length;

  const dir = stockFreezeDir(f.stateDir ?? defaultStateDir());
  const target = join(dir, `${asOf}.csv`);
  let state: 'stored' | 'replaced' | 'unchanged' = 'stored';
  if (existsSync(target)) {
    const held = readFileSync(target);
    if (held.equals(bytes)) state = 'unchanged';
    else if (!f.replace) {
      throw new ConfigError(`rules import-freeze: a different file is already stored as the revision in force from ${asOf} (${target}); give --replace to replace it, or another --as-of`, { file: target });
    } else state = 'replaced';
  }
  if (state !== 'unchanged') {
    mkdirSync(dir, { recursive: true });
    // Written beside the folder and renamed in: readers see the whole file, and the folder's one change.
    const tmp = stageFile(dir, asOf, process.pid);
    writeFileSync(tmp, bytes);
    renameSync(tmp, target);
  }
  const later = new StockFreezeRevisions(dir).revisions().find((r) => r.from > asOf);
  const result = {
    state,
    file: target,
    from: asOf,
    until: later?.from ?? null,
    stocks,
    indexRows: indexRows.map((r) => r.symbol),
  };
  if (f.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  const verb = state === 'unchanged' ? 'Already stored' : state === 'replaced' ? 'Replaced' : 'Stored';
  const span = later ? `from ${asOf} until ${later.from} (the next stored revision)` : `from ${asOf} until a later file is imported`;
  const lines = [`${verb}: NSE stock F&O freeze limits of ${stocks} underlying${stocks === 1 ? '' : 's'}, in force ${span}`, `  ${target}`];
  if (indexRows.length) lines.push(`  ${indexRows.length} index row${indexRows.length === 1 ? '' : 's'} (${indexRows.map((r) => r.symbol).join(', ')}) not used: index limits come from config/market-rules/freeze-quantities.yaml`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

export async function ls(f: RulesFlags & { date?: string }): Promise<void> {
  const date = f.date !== undefined ? dateFlag('date', f.date) : istDate(new WallClock().now());
  const rules = freezeRules();
  const stockDir = stockFreezeDir(f.stateDir ?? defaultStateDir());
  const stocks = new StockFreezeRevisions(stockDir);
  const stock = stocks.inForce(date);
  const bands = priceBandRules();
  const band = inForce(bands.revisions, date);
  const index = (['NSE', 'BSE'] as const).map((exchange) => {
    const rev = inForce(rules.indices[exchange], date);
    return { exchange, from: rev?.from ?? null, source: rev?.source ?? null, limits: rev?.limits ?? null };
  });
  const doc = {
    date,
    config: { lastChecked: rules.lastChecked, maxSlices: rules.maxSlices },
    freezeQuantities: {
      indices: index,
      stocks: stock ? { from: stock.from, file: stock.file, underlyings: stock.limits.size } : null,
      stockRevisions: stocks.revisions().map((r) => r.from),
      stockDir,
    },
    priceBands: band ? { from: band.from, source: band.source, futuresPct: band.futures_pct, options: band.options } : null,
  };
  if (f.json) {
    process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return;
  }
  const out: string[] = [`Market rules in force on ${date} (config/market-rules last checked ${rules.lastChecked})`, ''];
  out.push(`Freeze quantities (units per order; at most ${rules.maxSlices} slices):`);
  for (const i of index) {
    if (!i.limits) out.push(`  ${i.exchange} indices: none known on this date (the first revision is from ${rules.indices[i.exchange][0]!.from}); orders are not checked`);
    else {
      out.push(`  ${i.exchange} indices, from ${i.from}: ${Object.entries(i.limits).map(([s, q]) => `${s} ${q}`).join(', ')}`);
      out.push(`    source: ${i.source}`);
    }
  }
  if (stock) out.push(`  NSE stocks, from ${stock.from}: ${stock.limits.size} underlyings (${stock.file})`);
  else out.push(`  NSE stocks: none known on this date; stock F&O orders are not checked (import NSE's qtyfreeze file: tarang rules import-freeze FILE --as-of YYYY-MM-DD)`);
  const revs = stocks.revisions();
  out.push(`  stored stock revisions: ${revs.length ? revs.map((r) => r.from).join(', ') : 'none'} (${stockDir})`);
  out.push('');
  if (band) {
    out.push(`F&O execution range, from ${band.from}: futures ${band.futures_pct}%; options Rs ${band.options.absolute} up to Rs ${band.options.absolute_up_to}, ${band.options.pct_above}% above`);
    out.push(`  source: ${band.source}`);
  } else out.push('F&O execution range: none known on this date');
  process.stdout.write(`${out.join('\n')}\n`);
}
