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
 *
 * A frame read in full is kept as a template (tick-template.ts): the next frames with the same
 * skeleton, which is nearly every frame of a feed, are read by comparing the bytes between their
 * values and reading only the values, about twice as fast for a full frame.
 */

import { CLOSE_BRACE, COLON, COMMA, FAIL, LOWER_N, NUM, OPEN_BRACE, decimalId, is, nul, num, scalar, str, ws } from './json-bytes.js';
import { MODES, ScannedFrame, Slot, TemplateRecorder, TickField, ValueKind, matchTemplate, modeOf, type Template } from './tick-template.js';

export { Slot, TickField } from './tick-template.js';

const TOP_MODE = 0;
const TOP_INSTRUMENT = 1;
const TOP_EXCHANGE = 2;
const TOP_TIMESTAMP = 3;
const TOP_DATA = 4;
/** A key that makes the frame the general decoder's (it names the instrument another way). */
const TOP_REFUSE = 5;
const TOP_OTHER = 6;
const NOT_A_FIELD = -1;

/** Scrip codes cached (a broker sending ticks for ever new ids must not grow memory without end). */
const MAX_CODES = 100_000;
const MAX_EXCHANGES = 32;
/** Templates kept, most recently used first (a connection may carry ltp, quote and full frames, and partial ones). */
const MAX_TEMPLATES = 4;

interface Exchange {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly codes: Map<number, string>;
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

export class TickScanner {
  /** After a scan that returned true: the frame's mode, scrip code and timestamp (NaN: absent or null). */
  mode: (typeof MODES)[number] = 'ltp';
  instrument = '';
  timestamp = NaN;
  /** `data` members by TickField slot: what each held (Slot) and its number. */
  readonly state: Uint8Array;
  readonly values: Float64Array;

  private readonly frame = new ScannedFrame();
  private readonly recorder = new TemplateRecorder();
  private readonly templates: Template[] = [];
  /** The signature of the last frame read member by member (TemplateRecorder.signature). */
  private lastSignature = 0;
  private readonly exchanges: Exchange[] = [];
  private codes = 0;
  /** A view of the last frame's ArrayBuffer: frames from one pool or socket buffer share it, so it is made once for many. */
  private view: DataView = new DataView(new ArrayBuffer(0));
  private viewOf: ArrayBufferLike | undefined;

  constructor() {
    this.state = this.frame.state;
    this.values = this.frame.values;
  }

  /** Reads `b` as a plain tick frame; false when it is anything else (the general decoder's). */
  scan(b: Uint8Array): boolean {
    const frame = this.frame;
    const templates = this.templates;
    const buffer = b.buffer;
    if (buffer !== this.viewOf) {
      this.view = new DataView(buffer);
      this.viewOf = buffer;
    }
    const view = this.view;
    const base = b.byteOffset;
    for (let i = 0; i < templates.length; i++) {
      const t = templates[i]!;
      if (!matchTemplate(t, b, view, base, frame)) continue;
      if (i > 0) {
        templates.splice(i, 1);
        templates.unshift(t);
      }
      return this.finish(b);
    }
    this.recorder.reset();
    if (!this.scanMembers(b, view, base) || !this.finish(b)) return false;
    const signature = this.recorder.signature(b.length);
    if (signature !== this.lastSignature) {
      this.lastSignature = signature;
      return true;
    }
    const t = this.recorder.build(b);
    if (t !== undefined) {
      templates.unshift(t);
      if (templates.length > MAX_TEMPLATES) templates.pop();
    }
    return true;
  }

  /** The scrip code and mode of what was read into `frame`; false when the exchange cannot be cached. */
  private finish(b: Uint8Array): boolean {
    const f = this.frame;
    const exchange = this.exchange(b, f.exStart, f.exEnd);
    if (!exchange) return false;
    this.mode = MODES[f.mode]!;
    this.instrument = this.codeOf(exchange, f.id);
    this.timestamp = f.timestamp;
    return true;
  }

  /** Reads `b` member by member into `frame`, noting its values for a template; false when it is not a plain tick frame. */
  private scanMembers(b: Uint8Array, v: DataView, base: number): boolean {
    const f = this.frame;
    const rec = this.recorder;
    f.clear();
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
      const start = p;
      switch (key) {
        case TOP_MODE: {
          const e = str(b, p);
          if (e === FAIL) return false;
          f.mode = modeOf(b, p + 1, e - 1);
          if (f.mode < 0) return false;
          p = e;
          rec.value(start, p, ValueKind.MODE);
          break;
        }
        case TOP_INSTRUMENT: {
          const e = str(b, p);
          if (e === FAIL) return false;
          f.id = decimalId(b, p + 1, e - 1);
          if (f.id < 0) return false;
          p = e;
          rec.value(start, p, ValueKind.INSTRUMENT);
          break;
        }
        case TOP_EXCHANGE: {
          const e = str(b, p);
          if (e === FAIL || e - p === 2) return false;
          f.exStart = p + 1;
          f.exEnd = e - 1;
          p = e;
          rec.value(start, p, ValueKind.EXCHANGE);
          break;
        }
        case TOP_TIMESTAMP: {
          let e = nul(b, p);
          if (e !== FAIL) f.timestamp = NaN;
          else {
            e = num(b, v, base, p);
            if (e === FAIL) return false;
            f.timestamp = NUM[0]!;
          }
          p = e;
          rec.value(start, p, ValueKind.TIMESTAMP);
          break;
        }
        case TOP_DATA:
          // A second `data` replaces the first, as in JSON.parse (and a template could not say so).
          if (data) rec.refuse();
          f.clearData();
          p = this.data(b, v, base, p);
          if (p === FAIL) return false;
          data = true;
          break;
        case TOP_OTHER:
          p = scalar(b, v, base, p);
          if (p === FAIL) return false;
          rec.value(start, p, ValueKind.OTHER);
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
    return p === b.length && f.mode >= 0 && f.id >= 0 && f.exEnd > 0 && data;
  }

  /** Past the `data` object at `p`, its members into the frame; FAIL when it is not a plain one. */
  private data(b: Uint8Array, v: DataView, base: number, p: number): number {
    const state = this.frame.state;
    const values = this.frame.values;
    const rec = this.recorder;
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
      const start = p;
      if (f === NOT_A_FIELD) {
        p = scalar(b, v, base, p);
        if (p === FAIL) return FAIL;
        rec.value(start, p, ValueKind.OTHER);
      } else if (b[p] === LOWER_N) {
        p = nul(b, p);
        if (p === FAIL) return FAIL;
        state[f] = Slot.NULL;
        rec.value(start, p, f);
      } else {
        p = num(b, v, base, p);
        if (p === FAIL) return FAIL;
        state[f] = Slot.NUMBER;
        values[f] = NUM[0]!;
        rec.value(start, p, f);
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
