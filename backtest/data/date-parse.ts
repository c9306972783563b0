/**
 * Date and time fields parsed straight from the file's bytes (no substring, no regex, no Date):
 * the CSV loader calls these once per row, a million times a second.
 *
 * Accepted date fields (quotes and surrounding spaces are skipped):
 *   YYYY-MM-DD | YYYY/MM/DD [T| ]HH:MM[:SS[.fff]] [Z|+HH:MM|-HH:MM|+HHMM]
 *   YYYYMMDD                      (8 digits)
 *   DDMMYY                        (6 digits; YYMMDD with `sixDigit: 'ymd'`)
 *   DD-MM-YYYY | DD/MM/YYYY | DD-MMM-YYYY (01-JAN-2018), optional time after a space
 *                                 (MM/DD/YYYY with `dayFirst: false`)
 *   epoch seconds (9-11 digits, optional fraction) | epoch milliseconds (12-14 digits)
 * A time without an offset is IST (UTC+05:30, no daylight saving). Two-digit years pivot at 70
 * (00-69 -> 2000s). Every parser returns NaN on malformed input; the loader reports the line.
 */
import { IST_OFFSET_MS } from '../../src/core/time.js';

const C0 = 48;
const DAY = 86_400_000;

export interface DateParseOptions {
  /** How to read a 6-digit date: `dmy` = DDMMYY (default, Indian files), `ymd` = YYMMDD. */
  readonly sixDigit?: 'dmy' | 'ymd';
  /** `DD/MM/YYYY` (default) or `MM/DD/YYYY` for dates whose year comes last. */
  readonly dayFirst?: boolean;
}

/** Result side channel, to avoid allocating an object per row. */
export const parsed = {
  /** The field carried a time of day (or was an absolute epoch): no separate Time column needed. */
  hasTime: false,
};

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** UTC midnight ms of a calendar date, NaN when no such date. */
function civil(y: number, m: number, d: number): number {
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) || y < 1800 || y > 2200) return NaN;
  return daysFromCivil(y, m, d) * DAY;
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 48 && c <= 57;
}

/** Reads `n` digits at `i`; -1 when any is not a digit. */
function digits(b: Uint8Array, i: number, n: number, end: number): number {
  if (i + n > end) return -1;
  let v = 0;
  for (let k = 0; k < n; k++) {
    const c = b[i + k]!;
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - C0);
  }
  return v;
}

/** Trims spaces and one pair of surrounding double quotes; returns packed [s, e] via out. */
const span = { s: 0, e: 0 };
function trim(b: Uint8Array, s: number, e: number): void {
  while (s < e && (b[s] === 32 || b[s] === 9)) s++;
  while (e > s && (b[e - 1] === 32 || b[e - 1] === 9 || b[e - 1] === 13)) e--;
  if (e - s >= 2 && b[s] === 34 && b[e - 1] === 34) {
    s++;
    e--;
  }
  span.s = s;
  span.e = e;
}

/**
 * Parses a time of day `HH:MM[:SS[.fff]]` or `HHMM[SS]` at [s, e) into ms after midnight, and
 * an optional trailing offset. Returns NaN when malformed. `tz` receives the offset in ms
 * (UTC = 0), or NaN when the field had none (naive = IST).
 */
const tz = { offset: NaN };
function timeOfDay(b: Uint8Array, i: number, e: number): number {
  tz.offset = NaN;
  const h = digits(b, i, 2, e);
  if (h < 0) return NaN;
  i += 2;
  if (b[i] === 58) i++;
  const mi = digits(b, i, 2, e);
  if (mi < 0) return NaN;
  i += 2;
  let sec = 0;
  let ms = 0;
  if (i < e && (b[i] === 58 || isDigit(b[i]))) {
    if (b[i] === 58) i++;
    sec = digits(b, i, 2, e);
    if (sec < 0) return NaN;
    i += 2;
    if (i < e && b[i] === 46) {
      i++;
      let scale = 100;
      while (i < e && isDigit(b[i])) {
        ms += (b[i]! - C0) * scale;
        scale /= 10;
        i++;
      }
      ms = Math.floor(ms);
    }
  }
  if (h > 24 || mi > 59 || sec > 60 || (h === 24 && (mi > 0 || sec > 0))) return NaN;
  if (i < e) {
    const c = b[i];
    if (c === 90 /* Z */ && i + 1 === e) tz.offset = 0;
    else if (c === 43 || c === 45) {
      const sign = c === 43 ? 1 : -1;
      const oh = digits(b, i + 1, 2, e);
      let j = i + 3;
      if (b[j] === 58) j++;
      const om = j < e ? digits(b, j, 2, e) : 0;
      if (oh < 0 || om < 0 || (j < e && j + 2 !== e)) return NaN;
      tz.offset = sign * (oh * 60 + om) * 60_000;
    } else return NaN;
  }
  return ((h * 60 + mi) * 60 + sec) * 1000 + ms;
}

/**
 * Parses a date (or date-time) field into epoch ms. Sets `parsed.hasTime`. NaN when malformed.
 */
export function parseDateField(b: Uint8Array, s0: number, e0: number, opts: DateParseOptions = {}): number {
  trim(b, s0, e0);
  const s = span.s;
  const e = span.e;
  parsed.hasTime = false;
  let n = 0;
  while (s + n < e && isDigit(b[s + n])) n++;
  if (n === e - s || (n >= 9 && b[s + n] === 46)) {
    // All digits: a compact date or an epoch.
    if (n === 8) return civil(digits(b, s, 4, e), digits(b, s + 4, 2, e), digits(b, s + 6, 2, e)) - IST_OFFSET_MS;
    if (n === 6) {
      const a = digits(b, s, 2, e);
      const m = digits(b, s + 2, 2, e);
      const c = digits(b, s + 4, 2, e);
      const [yy, d] = opts.sixDigit === 'ymd' ? [a, c] : [c, a];
      return civil(yy < 70 ? 2000 + yy : 1900 + yy, m, d) - IST_OFFSET_MS;
    }
    if (n >= 9 && n <= 14) {
      let v = 0;
      for (let k = 0; k < n; k++) v = v * 10 + (b[s + k]! - C0);
      parsed.hasTime = true;
      if (n >= 12) return s + n === e ? v : NaN;
      let frac = 0;
      if (s + n < e) {
        let scale = 100;
        for (let k = s + n + 1; k < e; k++) {
          const c = b[k]!;
          if (c < 48 || c > 57) return NaN;
          frac += (c - C0) * scale;
          scale /= 10;
        }
      }
      return v * 1000 + Math.floor(frac);
    }
    return NaN;
  }
  let day: number;
  let i: number;
  if (n === 4 && (b[s + 4] === 45 || b[s + 4] === 47)) {
    const sep = b[s + 4];
    if (b[s + 7] !== sep) return NaN;
    day = civil(digits(b, s, 4, e), digits(b, s + 5, 2, e), digits(b, s + 8, 2, e));
    i = s + 10;
  } else if ((n === 1 || n === 2) && (b[s + n] === 45 || b[s + n] === 47)) {
    const sep = b[s + n];
    const a = digits(b, s, n, e);
    let j = s + n + 1;
    let m: number;
    let k = 0;
    while (j + k < e && b[j + k] !== sep) k++;
    if (k >= 3 && !isDigit(b[j])) {
      let name = '';
      for (let q = 0; q < 3; q++) name += String.fromCharCode(b[j + q]! & 0xdf);
      m = MONTHS.indexOf(name) + 1;
      if (m === 0) return NaN;
    } else if (k === 1 || k === 2) m = digits(b, j, k, e);
    else return NaN;
    j += k + 1;
    let yl = 0;
    while (j + yl < e && isDigit(b[j + yl])) yl++;
    if (yl !== 4 && yl !== 2) return NaN;
    let y = digits(b, j, yl, e);
    if (yl === 2) y = y < 70 ? 2000 + y : 1900 + y;
    const [d, mo] = opts.dayFirst === false && k <= 2 ? [m, a] : [a, m];
    day = civil(y, mo, d);
    i = j + yl;
  } else return NaN;
  if (Number.isNaN(day)) return NaN;
  if (i === e) return day - IST_OFFSET_MS;
  const c = b[i];
  if (c !== 84 && c !== 32) return NaN;
  while (i < e && (b[i] === 84 || b[i] === 32)) i++;
  const t = timeOfDay(b, i, e);
  if (Number.isNaN(t)) return NaN;
  parsed.hasTime = true;
  return day + t - (Number.isNaN(tz.offset) ? IST_OFFSET_MS : tz.offset);
}

/** Parses a separate Time column (`HH:MM[:SS]`, `HHMM`), ms after midnight; NaN when malformed. */
export function parseTimeField(b: Uint8Array, s0: number, e0: number): number {
  trim(b, s0, e0);
  const t = timeOfDay(b, span.s, span.e);
  return Number.isNaN(tz.offset) ? t : NaN;
}

/** String convenience wrapper (tests, CLI flags). */
export function parseDateString(text: string, opts: DateParseOptions = {}): number {
  const b = Buffer.from(text, 'latin1');
  return parseDateField(b, 0, b.length, opts);
}
