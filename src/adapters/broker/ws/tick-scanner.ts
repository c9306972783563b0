/**
 * A tick frame read straight from its bytes: the market feed's hot path, one frame a tick, tens of
 * thousands a second for a 3,000-instrument subscription. The general decoder (frame-decoder.ts)
 * made a string of each message, then JSON.parse made two objects, a boxed number per price and
 * a string per member before the decoder read them, and built the scrip code anew: about 1 kB of
 * garbage a tick, and most of the collector's work in the daemon. This reads the same members in
 * one pass over the bytes, allocating nothing (scrip codes come from a cache), and knows when it
 * cannot: any frame that is not a plain tick frame is left to the general decoder, which reads or
 * reports it as before. So it only has to be right about what it accepts:
 *
 * - one JSON object (no newline anywhere: batched messages are split by the general decoder),
 *   with `mode` ltp/quote/full, `instrument` a string of digits (no leading zero), `exchange` a
 *   non-empty string, `timestamp` a number or null, `data` an object;
 * - strings of printable ASCII without escapes; numbers without an exponent and with at most 15
 *   digits (so each is the same double JSON.parse makes: an integer below 2^53 divided by a power
 *   of ten up to 10^22 is correctly rounded, Clinger's fast path);
 * - `data` members that are numbers or null; other members with a scalar value are skipped, as
 *   the general decoder ignores them;
 * - no `instrument_token`, `token` or `segment` (they change how the instrument is named), no
 *   nested value outside `data`, nothing after the object, duplicate keys resolved as JSON.parse
 *   does (the last wins).
 * Anything else: `scan` returns false, the general path takes the frame. Test-pinned against it.
 */

/** The `data` members a tick carries, by slot. */
export const TickField = { LTP: 0, VOLUME: 1, BID: 2, ASK: 3, BID_QTY: 4, ASK_QTY: 5, OPEN: 6, HIGH: 7, LOW: 8, CLOSE: 9, OI: 10, LTT: 11 } as const;
const FIELD_COUNT = 12;

/** What a member held: absent, a number, or null (the general decoder reads null as "no value", absent as "unchanged"). */
export const Slot = { ABSENT: 0, NUMBER: 1, NULL: 2 } as const;

const MODES = ['ltp', 'quote', 'full'] as const;

const TOP_MODE = 0;
const TOP_INSTRUMENT = 1;
const TOP_EXCHANGE = 2;
const TOP_TIMESTAMP = 3;
const TOP_DATA = 4;
/** A key that makes the frame the general decoder's (it names the instrument another way). */
const TOP_REFUSE = 5;
const TOP_OTHER = 6;
const NOT_A_FIELD = -1;

const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Digits a number may have to be read here (below 2^53 whatever they are). */
const MAX_DIGITS = 15;
/** Scrip codes cached (a broker sending ticks for ever new ids must not grow memory without end). */
const MAX_CODES = 100_000;
const MAX_EXCHANGES = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const FAIL = -1;

interface Exchange {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly codes: Map<number, string>;
}

/** Whether `b[s, s + key.length)` spells `key` (ASCII). */
function is(b: Uint8Array, s: number, key: string): boolean {
  for (let i = 0; i < key.length; i++) if (b[s + i] !== key.charCodeAt(i)) return false;
  return true;
}

/** A top-level key of `len` bytes at `s`, told by its length and first byte, then checked whole. */
function topKey(b: Uint8Array, s: number, len: number): number {
  switch (len) {
    case 4:
      if (b[s] === 0x6d) return is(b, s, 'mode') ? TOP_MODE : TOP_OTHER;
      return is(b, s, 'data') ? TOP_DATA : TOP_OTHER;
    case 10:
      return is(b, s, 'instrument') ? TOP_INSTRUMENT : TOP_OTHER;
    case 8:
      return is(b, s, 'exchange') ? TOP_EXCHANGE : TOP_OTHER;
    case 9:
      return is(b, s, 'timestamp') ? TOP_TIMESTAMP : TOP_OTHER;
    case 5:
      return is(b, s, 'token') ? TOP_REFUSE : TOP_OTHER;
    case 7:
      return is(b, s, 'segment') ? TOP_REFUSE : TOP_OTHER;
    case 16:
      return is(b, s, 'instrument_token') ? TOP_REFUSE : TOP_OTHER;
    default:
      return TOP_OTHER;
  }
}

/** A `data` key of `len` bytes at `s` as its TickField, or NOT_A_FIELD (skipped, as the general decoder ignores it). */
function dataKey(b: Uint8Array, s: number, len: number): number {
  const c = b[s];
  switch (len) {
    case 3:
      if (c === 0x6c && b[s + 1] === 0x74) return b[s + 2] === 0x70 ? TickField.LTP : b[s + 2] === 0x74 ? TickField.LTT : NOT_A_FIELD;
      return is(b, s, 'low') ? TickField.LOW : NOT_A_FIELD;
    case 4:
      if (c === 0x6f) return is(b, s, 'open') ? TickField.OPEN : NOT_A_FIELD;
      return is(b, s, 'high') ? TickField.HIGH : NOT_A_FIELD;
    case 5:
      return is(b, s, 'close') ? TickField.CLOSE : NOT_A_FIELD;
    case 6:
      return is(b, s, 'volume') ? TickField.VOLUME : NOT_A_FIELD;
    case 7:
      if (c === 0x62) return is(b, s, 'bid_qty') ? TickField.BID_QTY : NOT_A_FIELD;
      return is(b, s, 'ask_qty') ? TickField.ASK_QTY : NOT_A_FIELD;
    case 9:
      if (c === 0x62) return is(b, s, 'bid_price') ? TickField.BID : NOT_A_FIELD;
      return is(b, s, 'ask_price') ? TickField.ASK : NOT_A_FIELD;
    case 2:
      return c === 0x6f && b[s + 1] === 0x69 ? TickField.OI : NOT_A_FIELD;
    default:
      return NOT_A_FIELD;
  }
}

/** Past JSON whitespace other than a newline (a newline means a batch, not ours: the caller's next check fails on it). */
function ws(b: Uint8Array, p: number): number {
  for (; p < b.length; p++) {
    const c = b[p]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return p;
  }
  return p;
}

/** Past a string of printable ASCII without escapes starting at `p` (a quote), or FAIL. Its contents: [p + 1, result - 1). */
function str(b: Uint8Array, p: number): number {
  if (b[p] !== QUOTE) return FAIL;
  for (let i = p + 1; i < b.length; i++) {
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c === BACKSLASH || c < 0x20 || c >= 0x7f) return FAIL;
  }
  return FAIL;
}

/** Where the last number read by `num` is kept (module scratch: read right after the call). */
const NUM = new Float64Array(1);

/** Past a JSON number without an exponent and with at most MAX_DIGITS digits, its value in NUM; FAIL otherwise. */
function num(b: Uint8Array, p: number): number {
  const neg = b[p] === MINUS;
  if (neg) p++;
  let m = 0;
  let digits = 0;
  let scale = 0;
  const first = b[p];
  if (first === ZERO) {
    p++;
    digits = 1;
  } else if (first !== undefined && first > ZERO && first <= NINE) {
    for (; p < b.length; p++) {
      const c = b[p]!;
      if (c < ZERO || c > NINE) break;
      m = m * 10 + (c - ZERO);
      digits++;
    }
  } else return FAIL;
  if (b[p] === DOT) {
    const from = ++p;
    for (; p < b.length; p++) {
      const c = b[p]!;
      if (c < ZERO || c > NINE) break;
      m = m * 10 + (c - ZERO);
      digits++;
    }
    scale = p - from;
    if (scale === 0) return FAIL;
  }
  const next = b[p];
  // An exponent, or a digit after a leading zero (invalid JSON: the general path reports it).
  if (next === 0x65 || next === 0x45 || (next !== undefined && next >= ZERO && next <= NINE)) return FAIL;
  if (digits > MAX_DIGITS || scale >= POW10.length) return FAIL;
  const v = scale === 0 ? m : m / POW10[scale]!;
  NUM[0] = neg ? -v : v;
  return p;
}

/** Past `null` at `p`, or FAIL. */
function nul(b: Uint8Array, p: number): number {
  return b[p] === 0x6e && b[p + 1] === 0x75 && b[p + 2] === 0x6c && b[p + 3] === 0x6c ? p + 4 : FAIL;
}

/** Past a string, number, true, false or null; FAIL for anything else (an object or array is not ours). */
function scalar(b: Uint8Array, p: number): number {
  const c = b[p];
  if (c === QUOTE) return str(b, p);
  if (c === MINUS || (c !== undefined && c >= ZERO && c <= NINE)) return num(b, p);
  if (c === 0x6e) return nul(b, p);
  if (c === 0x74) return is(b, p, 'true') ? p + 4 : FAIL;
  if (c === 0x66) return is(b, p, 'false') ? p + 5 : FAIL;
  return FAIL;
}

/** The string [s, e) as a plain decimal id (no sign, no leading zero, at most MAX_DIGITS digits); -1 otherwise. */
function decimalId(b: Uint8Array, s: number, e: number): number {
  const len = e - s;
  if (len === 0 || len > MAX_DIGITS || (len > 1 && b[s] === ZERO)) return -1;
  let n = 0;
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    if (c < ZERO || c > NINE) return -1;
    n = n * 10 + (c - ZERO);
  }
  return n;
}

/** The mode spelled by the string [s, e): its index in MODES, or -1. */
function modeOf(b: Uint8Array, s: number, e: number): number {
  switch (e - s) {
    case 3:
      return is(b, s, 'ltp') ? 0 : -1;
    case 5:
      return is(b, s, 'quote') ? 1 : -1;
    case 4:
      return is(b, s, 'full') ? 2 : -1;
    default:
      return -1;
  }
}

export class TickScanner {
  /** After a scan that returned true: the frame's mode, scrip code and timestamp (NaN: absent or null). */
  mode: (typeof MODES)[number] = 'ltp';
  instrument = '';
  timestamp = NaN;
  /** `data` members by TickField slot: what each held (Slot) and its number. */
  readonly state = new Uint8Array(FIELD_COUNT);
  readonly values = new Float64Array(FIELD_COUNT);

  private readonly exchanges: Exchange[] = [];
  private codes = 0;

  /** Reads `b` as a plain tick frame; false when it is anything else (the general decoder's). */
  scan(b: Uint8Array): boolean {
    this.state.fill(Slot.ABSENT);
    let timestamp = NaN;
    let mode = -1;
    let id = -1;
    let exchange: Exchange | undefined;
    let data = false;
    let p = ws(b, 0);
    if (b[p] !== OPEN_BRACE) return false;
    p = ws(b, p + 1);
    if (b[p] === CLOSE_BRACE) return false;
    for (;;) {
      const k = str(b, p);
      if (k === FAIL) return false;
      const key = topKey(b, p + 1, k - p - 2);
      p = ws(b, k);
      if (b[p] !== COLON) return false;
      p = ws(b, p + 1);
      switch (key) {
        case TOP_MODE: {
          const e = str(b, p);
          if (e === FAIL) return false;
          mode = modeOf(b, p + 1, e - 1);
          if (mode < 0) return false;
          p = e;
          break;
        }
        case TOP_INSTRUMENT: {
          const e = str(b, p);
          if (e === FAIL) return false;
          id = decimalId(b, p + 1, e - 1);
          if (id < 0) return false;
          p = e;
          break;
        }
        case TOP_EXCHANGE: {
          const e = str(b, p);
          if (e === FAIL || e - p === 2) return false;
          exchange = this.exchange(b, p + 1, e - 1);
          if (!exchange) return false;
          p = e;
          break;
        }
        case TOP_TIMESTAMP: {
          let e = nul(b, p);
          if (e !== FAIL) timestamp = NaN;
          else {
            e = num(b, p);
            if (e === FAIL) return false;
            timestamp = NUM[0]!;
          }
          p = e;
          break;
        }
        case TOP_DATA:
          // A second `data` replaces the first, as in JSON.parse.
          this.state.fill(Slot.ABSENT);
          p = this.data(b, p);
          if (p === FAIL) return false;
          data = true;
          break;
        case TOP_OTHER:
          p = scalar(b, p);
          if (p === FAIL) return false;
          break;
        default:
          return false;
      }
      p = ws(b, p);
      const c = b[p];
      if (c === COMMA) {
        p = ws(b, p + 1);
        continue;
      }
      if (c !== CLOSE_BRACE) return false;
      p = ws(b, p + 1);
      break;
    }
    if (p !== b.length || mode < 0 || id < 0 || !exchange || !data) return false;
    this.mode = MODES[mode]!;
    this.instrument = this.codeOf(exchange, id);
    this.timestamp = timestamp;
    return true;
  }

  /** Past the `data` object at `p`, its members into state/values; FAIL when it is not a plain one. */
  private data(b: Uint8Array, p: number): number {
    const state = this.state;
    const values = this.values;
    if (b[p] !== OPEN_BRACE) return FAIL;
    p = ws(b, p + 1);
    if (b[p] === CLOSE_BRACE) return p + 1;
    for (;;) {
      const k = str(b, p);
      if (k === FAIL) return FAIL;
      const f = dataKey(b, p + 1, k - p - 2);
      p = ws(b, k);
      if (b[p] !== COLON) return FAIL;
      p = ws(b, p + 1);
      if (f === NOT_A_FIELD) {
        p = scalar(b, p);
        if (p === FAIL) return FAIL;
      } else if (b[p] === 0x6e) {
        p = nul(b, p);
        if (p === FAIL) return FAIL;
        state[f] = Slot.NULL;
      } else {
        p = num(b, p);
        if (p === FAIL) return FAIL;
        state[f] = Slot.NUMBER;
        values[f] = NUM[0]!;
      }
      p = ws(b, p);
      const c = b[p];
      if (c === COMMA) {
        p = ws(b, p + 1);
        continue;
      }
      return c === CLOSE_BRACE ? p + 1 : FAIL;
    }
  }

  /** The exchange spelled by [s, e), from the cache (added on first sight); undefined past MAX_EXCHANGES. */
  private exchange(b: Uint8Array, s: number, e: number): Exchange | undefined {
    const table = this.exchanges;
    const len = e - s;
    for (let k = 0; k < table.length; k++) {
      const x = table[k]!;
      if (x.bytes.length !== len) continue;
      let same = true;
      for (let i = 0; i < len; i++) {
        if (b[s + i] !== x.bytes[i]) {
          same = false;
          break;
        }
      }
      if (same) return x;
    }
    if (table.length >= MAX_EXCHANGES) return undefined;
    const bytes = b.slice(s, e);
    const x: Exchange = { name: String.fromCharCode(...bytes), bytes, codes: new Map() };
    table.push(x);
    return x;
  }

  /** `NSE_2885` for exchange NSE and id 2885: made once, then read from the cache. */
  private codeOf(e: Exchange, id: number): string {
    const known = e.codes.get(id);
    if (known !== undefined) return known;
    const code = `${e.name}_${id}`;
    if (this.codes < MAX_CODES) {
      e.codes.set(id, code);
      this.codes++;
    }
    return code;
  }
}
