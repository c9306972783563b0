/**
 * NSE's file of quantity freeze limits per F&O underlying, `qtyfreeze`
 * (archives.nseindia.com/content/fo/qtyfreeze.xls): despite its name, CSV text with a header
 * `SYMBOL,VOL_FRZ_QTY` whose names may be padded (`SYMBOL    `), symbols padded likewise, and
 * numbers possibly quoted with thousands separators (`"1,440"`, Indian grouping `"1,00,000"` too).
 * It lists stocks and indices alike; tarang takes stock limits from it (index limits come from
 * config/market-rules/freeze-quantities.yaml, with their circulars).
 *
 * A download that failed answers an HTML page or a binary workbook: both are refused by name, not
 * read as rows. Every other fault is reported as `file:line: what`, all of them at once (up to
 * MAX_REPORTED), so a user fixes the file in one pass.
 */
import { csvLines, splitCsvLine } from '../../core/csv.js';
import { CsvError } from '../../core/errors.js';

/** A freeze limit: the largest quantity (units) of one order in a contract on the symbol. */
export interface QtyFreezeRow {
  readonly symbol: string;
  readonly limit: number;
  /** 1-based line in the file. */
  readonly line: number;
}

const MAX_REPORTED = 20;
const SYMBOL = /^[A-Z0-9][A-Z0-9&_-]*$/;
/** `1440`, `1,440` (thousands) or `1,00,000` (Indian grouping): a whole number, commas where either grouping puts them. */
const QUANTITY = /^(?:\d+|\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3})$/;

/** Why `bytes` is not the CSV text of qtyfreeze, or undefined when it may be. */
function notCsvText(bytes: Uint8Array): string | undefined {
  const head = bytes.subarray(0, 8);
  if (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) return 'is a binary Excel workbook (OLE2), not the CSV text NSE serves as qtyfreeze.xls';
  if (head[0] === 0x50 && head[1] === 0x4b) return 'is a ZIP archive (an .xlsx workbook?), not the CSV text NSE serves as qtyfreeze.xls';
  if (bytes.subarray(0, 4096).includes(0)) return 'is binary (it holds NUL bytes), not the CSV text NSE serves as qtyfreeze.xls';
  return undefined;
}

/** The text starts like an HTML page (an error, login or "access denied" page instead of the file). */
function looksLikeHtml(text: string): boolean {
  return /^\s*<(?:!doctype|html|head|body|\?xml|!--)/i.test(text);
}

const HINT = 'the download failed; fetch qtyfreeze.xls again from archives.nseindia.com/content/fo/ (a browser session may be needed) and give the file as downloaded';

/**
 * The rows of a qtyfreeze file, in file order. `where` names the file in errors. Throws a
 * CsvError listing every fault (file:line) when any row is bad: a half-read table is never used.
 */
export function parseQtyFreeze(content: string | Uint8Array, where: string): QtyFreezeRow[] {
  let text: string;
  if (typeof content === 'string') text = content;
  else {
    const bad = notCsvText(content);
    if (bad) throw new CsvError(`${where}: ${bad}: ${HINT}`, { file: where });
    text = new TextDecoder('utf-8').decode(content);
  }
  if (looksLikeHtml(text)) throw new CsvError(`${where}: is an HTML page, not NSE's qtyfreeze CSV: ${HINT}`, { file: where });
  const lines = csvLines(text);
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) throw new CsvError(`${where}: is empty; expected NSE's qtyfreeze CSV with the header SYMBOL,VOL_FRZ_QTY`, { file: where });
  const header = splitCsvLine(lines[first]!);
  const names = Array.isArray(header) ? header.map((h) => h.trim().toUpperCase()) : [];
  const symbolAt = names.indexOf('SYMBOL');
  const qtyAt = names.indexOf('VOL_FRZ_QTY');
  if (symbolAt < 0 || qtyAt < 0) {
    throw new CsvError(`${where}:${first + 1}: expected a header with SYMBOL and VOL_FRZ_QTY (NSE's qtyfreeze file), got ${JSON.stringify(lines[first]!.slice(0, 120))}`, { file: where, line: first + 1 });
  }

  const errors: string[] = [];
  const fail = (line: number, message: string): void => {
    errors.push(`${where}:${line}: ${message}`);
  };
  const rows: QtyFreezeRow[] = [];
  const seen = new Map<string, QtyFreezeRow>();
  for (let k = first + 1; k < lines.length; k++) {
    const raw = lines[k]!;
    const line = k + 1;
    if (raw.trim() === '') continue;
    const f = splitCsvLine(raw);
    if (!Array.isArray(f)) {
      fail(line, f.error);
      continue;
    }
    if (f.length !== names.length) {
      fail(line, `expected ${names.length} columns as in the header, got ${f.length}`);
      continue;
    }
    const symbol = f[symbolAt]!.trim().toUpperCase();
    const qtyText = f[qtyAt]!.trim();
    if (!SYMBOL.test(symbol)) {
      fail(line, `SYMBOL: expected an F&O underlying symbol (e.g. RELIANCE, M&M, BAJAJ-AUTO), got ${symbol === '' ? 'an empty field' : JSON.stringify(f[symbolAt])}`);
      continue;
    }
    const limit = QUANTITY.test(qtyText) ? Number(qtyText.replaceAll(',', '')) : Number.NaN;
    if (!Number.isSafeInteger(limit) || limit <= 0) {
      fail(line, `VOL_FRZ_QTY of ${symbol}: expected a positive whole number of units (e.g. 1800 or "1,440"), got ${JSON.stringify(f[qtyAt])}`);
      continue;
    }
    const before = seen.get(symbol);
    if (before) {
      if (before.limit !== limit) fail(line, `${symbol} is listed twice with different limits (line ${before.line}: ${before.limit}, here: ${limit})`);
      continue;
    }
    const row = { symbol, limit, line };
    seen.set(symbol, row);
    rows.push(row);
  }
  if (errors.length > 0) {
    const more = errors.length > MAX_REPORTED ? `\n... and ${errors.length - MAX_REPORTED} more` : '';
    throw new CsvError(`${where}: ${errors.length} bad row${errors.length === 1 ? '' : 's'} in NSE's qtyfreeze file:\n${errors.slice(0, MAX_REPORTED).join('\n')}${more}`, { file: where, errors: errors.length });
  }
  if (rows.length === 0) throw new CsvError(`${where}: has a header but no rows; expected one SYMBOL,VOL_FRZ_QTY row per F&O underlying`, { file: where });
  return rows;
}
