/**
 * Candles from a CSV file. Hand-written byte parsing (no per-row split, regex or zod): the whole
 * file is read once and each line is cut into fields in place, so a million-row minute file
 * parses in a fraction of a second. Columns are found by header name (csv-columns.ts), dates in
 * any of the forms date-parse.ts lists, prices straight to paise (number-parse.ts). Files holding
 * several instruments are split by their symbol column; option/futures files with expiry, strike
 * and option-type columns get NSE-style trading symbols (`NIFTY21FEB15000CE`).
 *
 * Bad rows: by default the first one stops the load with `file:line`, the column and the text;
 * with `badRows: 'skip'` they are dropped and listed in the summary.
 *
 * Over 500 lines on purpose: the byte-level fast path and the general path read the same rows
 * into the same columns and must change together; apart, one would drift from the other.
 */
import { basename, extname } from 'node:path';
import type { Interval } from '../../src/core/candles.js';
import { CsvError } from '../../src/core/errors.js';
import { SeriesBuilder, type CandleSeries } from './candle-series.js';
import { BarLabel, SessionFilter, finishSeries, inferInterval } from './clean-series.js';
import { looksLikeHeader, resolveColumns, type ColumnLayout, type ColumnRole } from './csv-columns.js';
import { parseDateField, parseTimeField, parsed, type DateParseOptions } from './date-parse.js';
import { emptyDrops, emptyRepairs, type BadRow, type LoadSummary, type SeriesSummary } from './load-summary.js';
import { numberFlags, parsePaiseField, parseQtyField } from './number-parse.js';
import { FileWindows } from './file-windows.js';
import { firstByte, nonDigits, wordDigits } from './digit-words.js';

export { FileWindows } from './file-windows.js';

export interface CsvLoadOptions extends DateParseOptions {
  /** Column names for a file without a header (a header line, if present, is then skipped). */
  readonly columns?: readonly string[];
  /** Role -> header name overrides, e.g. `{ volume: 'qty' }`. */
  readonly map?: Readonly<Partial<Record<ColumnRole, string>>>;
  /** Instrument id for a file without a symbol column (default: the file name, upper case). */
  readonly instrument?: string;
  /** Symbol in the file -> instrument id on the bus (e.g. `RELIANCE` -> `NSE_2885`). */
  readonly symbols?: Readonly<Record<string, string>>;
  /** Only these instruments (ids after `symbols` mapping); others are skipped silently. */
  readonly only?: readonly string[];
  /** Bar length; inferred from the spacing of the bars when absent. */
  readonly interval?: Interval;
  readonly label?: BarLabel;
  readonly session?: SessionFilter;
  readonly badRows?: 'error' | 'skip';
  readonly from?: number;
  readonly to?: number;
}

export interface CsvLoadResult {
  readonly series: readonly CandleSeries[];
  readonly summary: LoadSummary;
}

const R = { NONE: 0, DATE: 1, TIME: 2, OPEN: 3, HIGH: 4, LOW: 5, CLOSE: 6, VOLUME: 7, OI: 8, SYMBOL: 9, EXPIRY: 10, STRIKE: 11, OPT: 12, LOT: 13 } as const;
const ROLE_CODE: Readonly<Record<ColumnRole, number>> = {
  date: R.DATE,
  time: R.TIME,
  open: R.OPEN,
  high: R.HIGH,
  low: R.LOW,
  close: R.CLOSE,
  volume: R.VOLUME,
  oi: R.OI,
  symbol: R.SYMBOL,
  expiry: R.EXPIRY,
  strike: R.STRIKE,
  optionType: R.OPT,
  lot: R.LOT,
};
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const MAX_BAD_ROWS_LISTED = 20;
const EMPTY = new Uint8Array(0);

export function loadCsvCandles(path: string, options: CsvLoadOptions = {}): CsvLoadResult {
  let reader: FileWindows;
  try {
    reader = new FileWindows(path);
  } catch (e) {
    throw new CsvError(`cannot read candle file ${path}: ${(e as Error).message}`, { file: path }, { cause: e });
  }
  const stem = basename(path, extname(path)).toUpperCase();
  try {
    return parseCsvCandles(reader, path, { ...options, instrument: options.instrument ?? stem });
  } finally {
    reader.close();
  }
}

/** Splits one line of text into fields, honouring double quotes (header lines only). */
function splitLine(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (const ch of text) {
    if (ch === '"') q = !q;
    else if (ch === ',' && !q) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((f) => f.trim());
}

function optionSymbol(base: string, expiryMs: number, strike: string, type: string): string {
  const d = new Date(expiryMs + 330 * 60_000);
  const yy = String(d.getUTCFullYear() % 100).padStart(2, '0');
  const mon = MONTHS[d.getUTCMonth()]!;
  const t = type.toUpperCase();
  if (t === 'CE' || t === 'PE') {
    const k = Number(strike);
    return `${base}${yy}${mon}${Number.isFinite(k) ? String(k) : strike}${t}`;
  }
  return `${base}${yy}${mon}FUT`;
}

function textOf(b: Uint8Array, s: number, e: number): string {
  return Buffer.from(b.buffer, b.byteOffset + s, e - s).toString('latin1');
}

function lineEndAt(b: Uint8Array, p: number): number {
  const i = b.indexOf(10, p);
  return i < 0 ? b.length : i;
}

/**
 * State the row loop shares with `fastRows`: the date and symbol caches and the running counts.
 * Copied into locals on entry and back on exit so the hot loop keeps them in registers.
 */
interface RowState {
  lineNo: number;
  rows: number;
  anyTime: boolean;
  allTime: boolean;
  rounded: number;
  lastDate: number;
  lastDateHasTime: boolean;
  lastDateS: number;
  lastDateE: number;
  lastKeyS: number;
  lastKeyE: number;
}

/**
 * The common row, in a small function of its own (V8 compiles it early and well): no double
 * quote, not blank, every column present, the same date bytes as the cached date, the same
 * symbol bytes as the row before, prices as plain `digits[.d[d]]`, quantities as plain digits.
 * Prices and quantities are read in the same pass that finds the commas. It stops at the first
 * row that is anything else (a sign, a space, a third decimal, a bad value...) and returns that
 * row's start, untouched, for the general loop; a row it accepts gets exactly what the general
 * loop would give it.
 *
 * The text is read four bytes at a time (`dv`, a DataView of `b`): V8 spends as many instructions
 * on one typed-array read as on one DataView read of a word, ~20, so reading words and taking
 * them apart in registers reads a row in well under half the instructions of a byte at a time.
 * Digits are found and summed within a word (nonDigits, wordDigits); the date and the symbol are
 * compared a word at a time. A word read may take up to three bytes past the end of a field, so
 * only rows whose line feed lies at least four bytes before the end of `b` are taken here (the
 * line feed stops every scan, so nothing past it is ever used).
 */
function fastRows(
  b: Uint8Array,
  dv: DataView,
  pos: number,
  n: number,
  st: RowState,
  roles: Int8Array,
  hasTimeCol: boolean,
  symIdx: number,
  bld: SeriesBuilder,
  dateOpts: DateParseOptions,
): number {
  const nFields = roles.length;
  // The role codes as locals: read from R in the loop, V8 loads them from the object every time.
  const DATE = R.DATE;
  const TIME = R.TIME;
  const OPEN = R.OPEN;
  const HIGH = R.HIGH;
  const LOW = R.LOW;
  const CLOSE = R.CLOSE;
  const VOLUME = R.VOLUME;
  const OI = R.OI;
  // The cached date: its bytes, their length and value (a row of another date replaces it).
  let dS = st.lastDateS;
  let dLen = st.lastDateE - st.lastDateS;
  let cachedDate = st.lastDate;
  let cachedHasTime = st.lastDateHasTime;
  // Dates of up to 12 bytes (YYYYMMDD, YYYY-MM-DD, DD-MMM-YYYY, ...): three words at most.
  if (cachedDate !== cachedDate || dLen < 0 || dLen > 12) return pos;
  const kS = st.lastKeyS;
  const kLen = st.lastKeyE - st.lastKeyS;
  if (symIdx >= 0 && (kS < 0 || kLen > 12)) return pos;
  // The last line feed at or before n - 1 and at most at b.length - 4 (see above).
  const lastLf = Math.min(n, b.length - 3) > pos ? b.lastIndexOf(10, Math.min(n, b.length - 3) - 1) : -1;
  if (lastLf < pos) return pos;
  // The cached date and symbol as words (bytes past their length are masked off when compared).
  let dW0 = dLen > 0 ? dv.getUint32(dS, true) : 0;
  let dW1 = dLen > 4 ? dv.getUint32(dS + 4, true) : 0;
  let dW2 = dLen > 8 ? dv.getUint32(dS + 8, true) : 0;
  const kW0 = symIdx >= 0 && kLen > 0 ? dv.getUint32(kS, true) : 0;
  const kW1 = symIdx >= 0 && kLen > 4 ? dv.getUint32(kS + 4, true) : 0;
  const kW2 = symIdx >= 0 && kLen > 8 ? dv.getUint32(kS + 8, true) : 0;
  let lineNo = st.lineNo;
  let rows = st.rows;
  let anyTime = st.anyTime;
  let allTime = st.allTime;
  rowLoop: while (pos <= lastLf) {
    let p = pos;
    let time = NaN;
    // Every layout has the four prices (csv-columns.ts), so an accepted row sets them all; 0 and
    // not NaN, which V8 would keep boxed.
    let op = 0;
    let hi = 0;
    let lo = 0;
    let cl = 0;
    let vol = 0;
    let oi = 0;
    let hasTime = false;
    let dateSeen = false;
    for (let k = 0; k < nFields; k++) {
      const role = roles[k]!;
      const s = p;
      // The byte ending the field, once it is found.
      let c = 0;
      if (role >= OPEN && role <= CLOSE) {
        // digits[.d[d]]: whole words of four digits, then the rest of the integer part.
        let w = dv.getUint32(p, true);
        let m = nonDigits(w);
        if ((m & 0x80) !== 0) break rowLoop;
        let v = 0;
        let digits = 0;
        while (m === 0) {
          v = v * 10000 + wordDigits(w, 4);
          digits += 4;
          p += 4;
          w = dv.getUint32(p, true);
          m = nonDigits(w);
        }
        const j = firstByte(m);
        v = v * (j === 0 ? 1 : j === 1 ? 10 : j === 2 ? 100 : 1000) + wordDigits(w, j);
        // Past 15 digits a double would round; the general loop rounds them as it always has.
        if (digits + j > 15) break rowLoop;
        p += j;
        c = (w >>> (8 * j)) & 0xff;
        let frac = 0;
        if (c === 46) {
          // `.`, then up to two decimals: one more word read at the point.
          const f = dv.getUint32(p, true);
          c = (f >>> 8) & 0xff;
          p++;
          if (c >= 48 && c <= 57) {
            frac = (c - 48) * 10;
            c = (f >>> 16) & 0xff;
            p++;
            if (c >= 48 && c <= 57) {
              frac += c - 48;
              c = f >>> 24;
              p++;
              if (c >= 48 && c <= 57) break rowLoop;
            }
          }
        }
        v = v * 100 + frac;
        if (!(v > 0)) break rowLoop;
        if (role === OPEN) op = v;
        else if (role === HIGH) hi = v;
        else if (role === LOW) lo = v;
        else cl = v;
      } else if (role === VOLUME || role === OI) {
        // Plain digits, none at all being 0.
        let w = dv.getUint32(p, true);
        let m = nonDigits(w);
        let v = 0;
        let digits = 0;
        while (m === 0) {
          v = v * 10000 + wordDigits(w, 4);
          digits += 4;
          p += 4;
          w = dv.getUint32(p, true);
          m = nonDigits(w);
        }
        const j = firstByte(m);
        v = v * (j === 0 ? 1 : j === 1 ? 10 : j === 2 ? 100 : 1000) + wordDigits(w, j);
        if (digits + j > 15) break rowLoop;
        p += j;
        c = (w >>> (8 * j)) & 0xff;
        if (role === VOLUME) vol = v;
        else oi = v;
      } else if (role === DATE) {
        // The date of the row before, byte for byte (a word at a time), then the field's end.
        let same = true;
        if (dLen > 0) {
          const r = dLen >= 4 ? 0 : 32 - 8 * dLen;
          same = (((dv.getUint32(p, true) ^ dW0) << r) | 0) === 0;
        }
        if (same && dLen > 4) {
          const r = dLen >= 8 ? 0 : 64 - 8 * dLen;
          same = (((dv.getUint32(p + 4, true) ^ dW1) << r) | 0) === 0;
        }
        if (same && dLen > 8) {
          const r = dLen >= 12 ? 0 : 96 - 8 * dLen;
          same = (((dv.getUint32(p + 8, true) ^ dW2) << r) | 0) === 0;
        }
        if (same) {
          // Every byte matched (none is a line feed), so the one after them is on this line.
          c = b[p + dLen]!;
          same = c === 44 || c === 10 || c === 13;
        }
        if (same) p += dLen;
        else {
          // Another date (the next day of a minute file): parsed here as the general loop parses
          // it, and cached in its place. Returning to the general loop once a day instead made
          // V8 compile this function twice (on-stack for the first day's loop, then again for
          // the calls that followed): a sizeable part of a short run's compile time.
          c = b[p]!;
          while (c !== 44 && c !== 10 && c !== 13) {
            if (c === 34) break rowLoop;
            c = b[++p]!;
          }
          const len = p - s;
          if (len > 12) break rowLoop;
          const d = parseDateField(b, s, p, dateOpts);
          if (d !== d) break rowLoop;
          cachedDate = d;
          cachedHasTime = parsed.hasTime;
          dS = s;
          dLen = len;
          dW0 = len > 0 ? dv.getUint32(s, true) : 0;
          dW1 = len > 4 ? dv.getUint32(s + 4, true) : 0;
          dW2 = len > 8 ? dv.getUint32(s + 8, true) : 0;
        }
        hasTime = cachedHasTime;
        dateSeen = true;
      } else if (role === TIME) {
        // `HH:MM` inline (minute files); anything else through the general time parser.
        const w = dv.getUint32(p, true);
        c = w & 0xff;
        if (c >= 48 && c <= 50 && ((w >>> 16) & 0xff) === 58) {
          const h1 = (w >>> 8) & 0xff;
          const m0 = w >>> 24;
          const m1 = b[p + 4]!;
          const after = b[p + 5]!;
          if (h1 >= 48 && h1 <= 57 && m0 >= 48 && m0 <= 53 && m1 >= 48 && m1 <= 57 && (after === 44 || after === 10 || after === 13)) {
            const h = (c - 48) * 10 + (h1 - 48);
            if (h > 23) break rowLoop;
            time = (h * 60 + (m0 - 48) * 10 + (m1 - 48)) * 60_000;
            p += 5;
            c = after;
          }
        }
        if (time !== time) {
          while (c !== 44 && c !== 10 && c !== 13) {
            if (c === 34) break rowLoop;
            c = b[++p]!;
          }
          time = parseTimeField(b, s, p);
        }
      } else if (k === symIdx) {
        // The symbol of the row before, compared as the date is.
        if (kLen > 0) {
          const r = kLen >= 4 ? 0 : 32 - 8 * kLen;
          if ((((dv.getUint32(p, true) ^ kW0) << r) | 0) !== 0) break rowLoop;
        }
        if (kLen > 4) {
          const r = kLen >= 8 ? 0 : 64 - 8 * kLen;
          if ((((dv.getUint32(p + 4, true) ^ kW1) << r) | 0) !== 0) break rowLoop;
        }
        if (kLen > 8) {
          const r = kLen >= 12 ? 0 : 96 - 8 * kLen;
          if ((((dv.getUint32(p + 8, true) ^ kW2) << r) | 0) !== 0) break rowLoop;
        }
        p += kLen;
        c = b[p]!;
      } else {
        c = b[p]!;
        while (c !== 44 && c !== 10 && c !== 13) {
          if (c === 34) break rowLoop;
          c = b[++p]!;
        }
      }
      // p is at the field's end: a comma or the line end (LF, or CR LF); anything else is for
      // the general loop.
      if (c === 44) {
        // Columns beyond the header's are ignored, as by the general loop.
        if (k === nFields - 1) break;
        p++;
      } else if (c === 10 || (c === 13 && b[p + 1] === 10)) {
        // A short row: the general loop fills the missing columns.
        if (k < nFields - 1) break rowLoop;
      } else break rowLoop;
    }
    if (!dateSeen) break;
    // The rest of the line (columns beyond the header's) is ignored, as by the general loop.
    let i = p;
    while (b[i] !== 10) i++;
    let date = cachedDate;
    if (!hasTime && hasTimeCol) {
      if (time !== time) break;
      date += time;
      hasTime = true;
    }
    // Accepted: the general loop's bookkeeping for a good row (no price here was rounded).
    lineNo++;
    if (hasTime) anyTime = true;
    else allTime = false;
    rows++;
    bld.push(date, op, hi, lo, cl, vol, oi, lineNo);
    pos = i + 1;
  }
  st.lineNo = lineNo;
  st.rows = rows;
  st.anyTime = anyTime;
  st.allTime = allTime;
  st.rounded = 0;
  st.lastDate = cachedDate;
  st.lastDateHasTime = cachedHasTime;
  st.lastDateS = dS;
  st.lastDateE = dS + dLen;
  return pos;
}

/** Whether the first `len` starts are in time order (files nearly always are). */
function inTimeOrder(start: Float64Array, len: number): boolean {
  for (let k = 1; k < len; k++) if (!(start[k - 1]! <= start[k]!)) return false;
  return true;
}

/**
 * The loaded rows of each instrument as clean series (clean-series.ts), in instrument order. A
 * function apart from the row loop: V8 optimises that loop on the stack while it runs, and code
 * after it that has never run would make that optimised code bail out and the whole loader be
 * compiled again just for this.
 */
function finishAll(
  order: SeriesBuilder[],
  o: CsvLoadOptions,
  source: string,
  anyTime: boolean,
  allTime: boolean,
  drops: LoadSummary['dropped'],
  repairs: LoadSummary['repaired'],
  notes: string[],
): { series: CandleSeries[]; summaries: SeriesSummary[] } {
  const series: CandleSeries[] = [];
  const summaries: SeriesSummary[] = [];
  const dateOnly = !anyTime;
  if (anyTime && !allTime) notes.push(`${source}: some rows have a time of day and some do not; date-only rows are taken as 00:00 IST`);
  // One interval per file, read from its longest series (sparse series of a multi-instrument
  // file, like an EOD option sample, would otherwise look weekly).
  let interval = o.interval;
  if (!interval && order.length > 0) {
    const longest = order.reduce((a, x) => (x.length > a.length ? x : a));
    // Files are nearly always in time order: sort a copy (a million floats, ~100 ms) only when not.
    const len = longest.length;
    const starts = inTimeOrder(longest.start, len) ? longest.start : longest.start.slice(0, len).sort();
    interval = inferInterval(starts, len, dateOnly, source);
  }
  for (const bld of order.sort((x, y) => (x.symbol < y.symbol ? -1 : x.symbol > y.symbol ? 1 : 0))) {
    const r = finishSeries(
      bld,
      {
        source,
        instrument: bld.symbol,
        dateOnly,
        label: o.label ?? BarLabel.START,
        session: o.session ?? SessionFilter.AUTO,
        ...(interval ? { interval } : {}),
        ...(o.from !== undefined ? { from: o.from } : {}),
        ...(o.to !== undefined ? { to: o.to } : {}),
      },
      drops,
      repairs,
      notes,
    );
    series.push(r.series);
    summaries.push(r.summary);
  }
  return { series, summaries };
}

// Hot-loop note: no closure below captures `b`, `n` or `pos`, so V8 keeps them in registers
// instead of a context object (worth ~40% of the parse time).
export function parseCsvCandles(input: Uint8Array | FileWindows, source: string, o: CsvLoadOptions = {}): CsvLoadResult {
  // The bytes in hand (the whole input, or a window of a file read in windows) and `n`, where
  // their last whole line ends: rows are parsed up to `n`, the rest is carried to the next window.
  const reader = input instanceof Uint8Array ? undefined : input;
  let b: Uint8Array = reader ? EMPTY : (input as Uint8Array);
  let n = b.length;
  if (reader) {
    const w = reader.next(EMPTY);
    if (w) {
      b = w.bytes;
      n = w.end;
    }
  }
  const size = reader ? reader.size : b.length;
  let pos = n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  const drops = emptyDrops();
  const repairs = emptyRepairs();
  const notes: string[] = [];
  const badRows: BadRow[] = [];

  let lineNo = 0;
  for (;;) {
    let more = true;
    while (pos >= n && more) {
      // No whole line in hand: the next window (a line may be longer than one).
      const w = reader?.next(b.subarray(Math.min(pos, b.length)));
      if (w) {
        b = w.bytes;
        n = w.end;
        pos = 0;
      } else more = false;
    }
    if (pos >= n) break;
    const e = lineEndAt(b, pos);
    if (textOf(b, pos, e).trim() !== '') break;
    drops.blankLines++;
    lineNo++;
    pos = e + 1;
  }
  if (pos >= n) throw new CsvError(`${source}: the file is empty`, { file: source });
  const firstEnd = lineEndAt(b, pos);
  const firstFields = splitLine(textOf(b, pos, firstEnd).replace(/\r$/, ''));
  const isHeader = looksLikeHeader(firstFields);
  let layout: ColumnLayout;
  if (o.columns) layout = resolveColumns(o.columns, source, o.map);
  else if (isHeader) layout = resolveColumns(firstFields, source, o.map);
  else {
    throw new CsvError(
      `${source}: the first line is not a header (${firstFields.slice(0, 4).join(',')}...); ` +
        'name the columns with --columns, e.g. --columns date,open,high,low,close,volume',
      { file: source },
    );
  }
  if (isHeader) {
    lineNo++;
    pos = firstEnd + 1;
  }
  const roles = Int8Array.from(layout.roles, (r) => (r === undefined ? R.NONE : ROLE_CODE[r]));
  const nFields = roles.length;
  const hasTimeCol = layout.index.time !== undefined;
  const hasSymbol = layout.index.symbol !== undefined;
  const isDerivative = layout.index.expiry !== undefined;
  const withOi = layout.index.oi !== undefined;
  const dateOpts: DateParseOptions = { ...(o.sixDigit ? { sixDigit: o.sixDigit } : {}), ...(o.dayFirst !== undefined ? { dayFirst: o.dayFirst } : {}) };
  const only = o.only ? new Set(o.only) : undefined;
  const single = o.instrument ?? 'CSV';

  // Rows expected, from the length of the first lines: sizes the columns once (no regrowth
  // copies, no 2x slack on a million rows).
  let probe = pos;
  let probed = 0;
  while (probe < n && probed < 1000) {
    probe = lineEndAt(b, probe) + 1;
    probed++;
  }
  const avgLine = probed > 0 ? Math.max(8, (Math.min(probe, n) - pos) / probed) : 64;
  // With a symbol column the first instrument gets the full estimate too: most such files hold
  // one instrument, and doubling from 1024 to a million rows copies every column ten times.
  const capacity = Math.max(1024, Math.ceil(((size - pos) / avgLine) * 1.05) + 16);
  let sized = false;
  const builders = new Map<string, SeriesBuilder | null>();
  const order: SeriesBuilder[] = [];
  const builderFor = (id: string): SeriesBuilder | null => {
    let bld = builders.get(id);
    if (bld === undefined) {
      bld = only && !only.has(id) ? null : new SeriesBuilder(id, sized ? 1024 : capacity, withOi);
      if (bld) sized = true;
      builders.set(id, bld);
      if (bld) order.push(bld);
    }
    return bld;
  };
  // The symbol of consecutive rows is usually the same: compare bytes before decoding.
  let lastKeyS = -1;
  let lastKeyE = -1;
  let lastBuilder: SeriesBuilder | null = hasSymbol ? null : builderFor(o.symbols?.[single] ?? single);

  let rows = 0;
  let anyTime = false;
  let allTime = true;
  let lastDate = NaN;
  let lastDateHasTime = false;
  let lastDateS = 0;
  let lastDateE = -1;
  const fieldS = new Int32Array(nFields);
  const fieldE = new Int32Array(nFields);

  const bad = (line: number, lineText: string, reason: string): void => {
    drops.badRows++;
    const row: BadRow = { line, reason, text: lineText.slice(0, 200) };
    if (o.badRows !== 'skip') throw new CsvError(`${source}:${line}: ${reason}: ${row.text}`, { file: source, line, reason });
    if (badRows.length < MAX_BAD_ROWS_LISTED) badRows.push(row);
  };

  // Rows the fast path takes (see fastRows); after a row it declines, the general loop takes a
  // growing number of rows before trying it again, so files it never suits (a date per row,
  // quoted fields) pay almost nothing for it.
  const fastSym = hasSymbol && !isDerivative ? layout.index.symbol! : -1;
  const fastOk = !isDerivative;
  const st: RowState = { lineNo: 0, rows: 0, anyTime: false, allTime: true, rounded: 0, lastDate: NaN, lastDateHasTime: false, lastDateS: 0, lastDateE: -1, lastKeyS: -1, lastKeyE: -1 };
  let backoff = 0;
  let skip = 0;
  // fastRows reads the bytes in hand through a DataView, made again when they change.
  let dv: DataView = new DataView(EMPTY.buffer);
  let dvBytes: Uint8Array = EMPTY;

  for (;;) {
    if (pos >= n) {
      // The next window (no closure: `b`, `n` and `pos` stay in registers); byte positions of the
      // cached date and symbol were the last window's.
      const w = reader?.next(b.subarray(Math.min(pos, b.length)));
      if (!w) break;
      b = w.bytes;
      n = w.end;
      pos = 0;
      lastDateS = 0;
      lastDateE = -1;
      lastKeyS = -1;
      lastKeyE = -1;
      continue;
    }
    if (fastOk && lastBuilder !== null && skip-- <= 0) {
      st.lineNo = lineNo;
      st.rows = rows;
      st.anyTime = anyTime;
      st.allTime = allTime;
      st.rounded = 0;
      st.lastDate = lastDate;
      st.lastDateHasTime = lastDateHasTime;
      st.lastDateS = lastDateS;
      st.lastDateE = lastDateE;
      st.lastKeyS = lastKeyS;
      st.lastKeyE = lastKeyE;
      if (dvBytes !== b) {
        dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
        dvBytes = b;
      }
      const at = fastRows(b, dv, pos, n, st, roles, hasTimeCol, fastSym, lastBuilder, dateOpts);
      // The date cache as fastRows left it (it parses the dates it meets; positions in `b`).
      lastDate = st.lastDate;
      lastDateHasTime = st.lastDateHasTime;
      lastDateS = st.lastDateS;
      lastDateE = st.lastDateE;
      if (at !== pos) {
        lineNo = st.lineNo;
        rows = st.rows;
        anyTime = st.anyTime;
        allTime = st.allTime;
        repairs.roundedToPaise += st.rounded;
        pos = at;
        backoff = 0;
        if (pos >= n) continue;
      } else backoff = Math.min(64, backoff * 2 + 1);
      skip = backoff;
    }
    // Cut fields and find the line end in one pass over the bytes (a Buffer.indexOf per line
    // costs more than the scan: it goes through a JS wrapper into C++). Commas inside double
    // quotes are not separators.
    let f = 0;
    let fs = pos;
    let inQ = false;
    let i = pos;
    for (; i < n; i++) {
      const c = b[i]!;
      if (c === 10) break;
      if (c === 44) {
        if (!inQ) {
          if (f < nFields) {
            fieldS[f] = fs;
            fieldE[f] = i;
          }
          f++;
          fs = i + 1;
        }
      } else if (c === 34) inQ = !inQ;
    }
    let le = i;
    const next = i + 1;
    lineNo++;
    if (le > pos && b[le - 1] === 13) le--;
    if (le === pos) {
      drops.blankLines++;
      pos = next;
      continue;
    }
    if (f < nFields) {
      fieldS[f] = fs;
      fieldE[f] = le;
    }
    f++;
    if (f < nFields) {
      // Trailing optional columns may be absent; required ones are checked below.
      for (let k = f; k < nFields; k++) fieldS[k] = fieldE[k] = le;
    }
    let date = NaN;
    let time = NaN;
    let op = NaN;
    let hi = NaN;
    let lo = NaN;
    let cl = NaN;
    let vol = 0;
    let oi = 0;
    let rounded = 0;
    let badRole = -1;
    let hasTime = false;
    for (let k = 0; k < nFields; k++) {
      const role = roles[k]!;
      if (role === R.NONE) continue;
      const s = fieldS[k]!;
      const e = fieldE[k]!;
      switch (role) {
        case R.DATE: {
          // Minute files repeat the date on every bar of a day: reuse the last parse when the
          // bytes are the same.
          let same = e - s === lastDateE - lastDateS;
          for (let q = 0; same && q < e - s; q++) same = b[s + q] === b[lastDateS + q];
          if (same) {
            date = lastDate;
            hasTime = lastDateHasTime;
          } else {
            date = parseDateField(b, s, e, dateOpts);
            hasTime = parsed.hasTime;
            lastDate = date;
            lastDateHasTime = hasTime;
            lastDateS = s;
            lastDateE = e;
          }
          if (date !== date) badRole = k;
          break;
        }
        case R.TIME:
          time = parseTimeField(b, s, e);
          break;
        case R.OPEN:
          op = parsePaiseField(b, s, e);
          rounded += numberFlags.rounded ? 1 : 0;
          if (!(op > 0)) badRole = k;
          break;
        case R.HIGH:
          hi = parsePaiseField(b, s, e);
          rounded += numberFlags.rounded ? 1 : 0;
          if (!(hi > 0)) badRole = k;
          break;
        case R.LOW:
          lo = parsePaiseField(b, s, e);
          rounded += numberFlags.rounded ? 1 : 0;
          if (!(lo > 0)) badRole = k;
          break;
        case R.CLOSE:
          cl = parsePaiseField(b, s, e);
          rounded += numberFlags.rounded ? 1 : 0;
          if (!(cl > 0)) badRole = k;
          break;
        case R.VOLUME:
          if (e > s) {
            vol = parseQtyField(b, s, e);
            if (vol !== vol) badRole = k;
          }
          break;
        case R.OI:
          if (e > s) {
            oi = parseQtyField(b, s, e);
            if (oi !== oi) badRole = k;
          }
          break;
        default:
          break;
      }
      if (badRole >= 0) break;
    }
    if (badRole >= 0) {
      const what = layout.headers[badRole] ?? `column ${badRole + 1}`;
      const value = textOf(b, fieldS[badRole]!, fieldE[badRole]!);
      const kind = roles[badRole] === R.DATE ? 'not a date' : roles[badRole]! >= R.VOLUME ? 'not a quantity' : 'not a positive price';
      bad(lineNo, textOf(b, pos, le), `column "${what}" is ${kind} (${JSON.stringify(value)})`);
      pos = next;
      continue;
    }
    if (!hasTime && hasTimeCol) {
      if (time !== time) {
        const k = layout.index.time!;
        bad(lineNo, textOf(b, pos, le), `column "${layout.headers[k]}" is not a time (${JSON.stringify(textOf(b, fieldS[k]!, fieldE[k]!))})`);
        pos = next;
        continue;
      }
      date += time;
      hasTime = true;
    }
    if (hasTime) anyTime = true;
    else allTime = false;
    repairs.roundedToPaise += rounded;

    let bld = lastBuilder;
    if (hasSymbol) {
      const ks = isDerivative ? pos : fieldS[layout.index.symbol!]!;
      const ke = isDerivative ? le : fieldE[layout.index.symbol!]!;
      let same = lastKeyS >= 0 && !isDerivative && ke - ks === lastKeyE - lastKeyS;
      if (same) {
        for (let q = 0; q < ke - ks; q++) {
          if (b[ks + q] !== b[lastKeyS + q]) {
            same = false;
            break;
          }
        }
      }
      if (!same) {
        let sym = textOf(b, fieldS[layout.index.symbol!]!, fieldE[layout.index.symbol!]!).replace(/"/g, '').trim();
        if (isDerivative) {
          const ix = layout.index;
          const exp = parseDateField(b, fieldS[ix.expiry!]!, fieldE[ix.expiry!]!, dateOpts);
          if (exp !== exp) {
            bad(lineNo, textOf(b, pos, le), `column "${layout.headers[ix.expiry!]}" is not a date`);
            pos = next;
            continue;
          }
          const strike = ix.strike !== undefined ? textOf(b, fieldS[ix.strike]!, fieldE[ix.strike]!).replace(/"/g, '').trim() : '';
          const type = ix.optionType !== undefined ? textOf(b, fieldS[ix.optionType]!, fieldE[ix.optionType]!).replace(/"/g, '').trim() : '';
          sym = optionSymbol(sym, exp, strike, type);
        }
        if (sym === '') {
          bad(lineNo, textOf(b, pos, le), `column "${layout.headers[layout.index.symbol!]}" is empty`);
          pos = next;
          continue;
        }
        bld = builderFor(o.symbols?.[sym] ?? sym);
        lastBuilder = bld;
        lastKeyS = ks;
        lastKeyE = ke;
        if (bld && isDerivative && layout.index.lot !== undefined && bld.lotSize === undefined) {
          const lot = parseQtyField(b, fieldS[layout.index.lot]!, fieldE[layout.index.lot]!);
          if (lot > 0) bld.lotSize = lot;
        }
      }
    }
    rows++;
    if (bld) bld.push(date, op, hi, lo, cl, vol, oi, lineNo);
    pos = next;
  }

  const { series, summaries } = finishAll(order, o, source, anyTime, allTime, drops, repairs, notes);
  return {
    series,
    summary: {
      source,
      rows,
      candles: series.reduce((a, s) => a + s.length, 0),
      instruments: summaries,
      dropped: drops,
      repaired: repairs,
      badRows,
      notes,
    },
  };
}
