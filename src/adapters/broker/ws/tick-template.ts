/**
 * Frame templates: the tick scanner's (tick-scanner.ts) short cut for the frames a feed repeats.
 * A broker's serializer writes every tick frame of a mode with the same keys in the same order and
 * the same punctuation; only the values change. Once the scanner has read a frame member by member
 * it keeps that frame's skeleton: the bytes between its values (keys, colons, commas, braces,
 * whitespace) and what each value is. A later frame whose bytes between values are the very same
 * is then read by comparing those bytes and reading only the values, with the same readers as the
 * scanner (json-bytes.ts): so it reads exactly what the scanner would, keys unread and unmatched.
 * A frame that differs anywhere (another key, order or spacing, a value of another type) is not
 * the template's: the scanner reads it in full, and it may become a template itself.
 */
import { FAIL, LOWER_N, decimalId, is, nul, num, NUM, scalar, str } from './json-bytes.js';

/** The `data` members a tick carries, by slot. */
export const TickField = { LTP: 0, VOLUME: 1, BID: 2, ASK: 3, BID_QTY: 4, ASK_QTY: 5, OPEN: 6, HIGH: 7, LOW: 8, CLOSE: 9, OI: 10, LTT: 11 } as const;
export const FIELD_COUNT = 12;

/** What a member held: absent, a number, or null (the general decoder reads null as "no value", absent as "unchanged"). */
export const Slot = { ABSENT: 0, NUMBER: 1, NULL: 2 } as const;

export const MODES = ['ltp', 'quote', 'full'] as const;

/** What a value of a frame is: a `data` member by its TickField (0 to FIELD_COUNT - 1), or one of these. */
export const ValueKind = { MODE: FIELD_COUNT, INSTRUMENT: FIELD_COUNT + 1, EXCHANGE: FIELD_COUNT + 2, TIMESTAMP: FIELD_COUNT + 3, OTHER: FIELD_COUNT + 4 } as const;

/** Values a frame may have to be kept as a template (the simulator's full frame has 18). */
const MAX_VALUES = 64;

/** What a scan read, whether member by member or through a template. */
export class ScannedFrame {
  /** Index in MODES; -1 until read. */
  mode = -1;
  /** The instrument id as a number; -1 until read. */
  id = -1;
  /** The exchange's bytes: [exStart, exEnd) of the frame; exEnd 0 until read. */
  exStart = 0;
  exEnd = 0;
  /** NaN: absent or null. */
  timestamp = NaN;
  /** `data` members by TickField slot: what each held (Slot) and its number. */
  readonly state = new Uint8Array(FIELD_COUNT);
  readonly values = new Float64Array(FIELD_COUNT);

  clear(): void {
    this.mode = -1;
    this.id = -1;
    this.exEnd = 0;
    this.timestamp = NaN;
    this.clearData();
  }

  /** Every `data` member absent (a loop: TypedArray.fill is a call into the runtime, slower for 12). */
  clearData(): void {
    const s = this.state;
    for (let i = 0; i < FIELD_COUNT; i++) s[i] = Slot.ABSENT;
  }
}

/** A frame's skeleton: its bytes outside the values, run by run, and the kind of each value. */
export interface Template {
  /** The bytes before value 0, between values 0 and 1, ..., after the last, one after another. */
  readonly literal: Uint8Array;
  /** words[i]: literal[i, i + 4) as a little-endian int32 (0 for the last three). */
  readonly words: Int32Array;
  /** runEnds[k]: where in `literal` the run before value k ends (k = values: the last run). */
  readonly runEnds: Int32Array;
  /** kinds[k]: value k's ValueKind. */
  readonly kinds: Uint8Array;
  /** The TickFields that are not among the values (absent from every frame of the template). */
  readonly absent: Uint8Array;
  /** Whether the frame has a timestamp member. */
  readonly timestamped: boolean;
}

/** The mode spelled by the string [s, e): its index in MODES, or -1. */
export function modeOf(b: Uint8Array, s: number, e: number): number {
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

/** Notes where a frame's values lie while the scanner reads it, to keep the frame as a template. */
export class TemplateRecorder {
  private readonly starts = new Int32Array(MAX_VALUES);
  private readonly ends = new Int32Array(MAX_VALUES);
  private readonly kinds = new Uint8Array(MAX_VALUES);
  private count = 0;
  private usable = true;

  reset(): void {
    this.count = 0;
    this.usable = true;
  }

  /** The value [start, end) of the frame is of `kind`. */
  value(start: number, end: number, kind: number): void {
    const k = this.count;
    if (k === MAX_VALUES) {
      this.usable = false;
      return;
    }
    this.starts[k] = start;
    this.ends[k] = end;
    this.kinds[k] = kind;
    this.count = k + 1;
  }

  /** The frame cannot be a template (e.g. a second `data`, which clears what the first set). */
  refuse(): void {
    this.usable = false;
  }

  /**
   * A number that tells the skeleton of the frame just read (`length` bytes long) from most
   * others: its values' kinds and the lengths of the runs between them. Two frames with the same skeleton have the same
   * signature; the scanner makes a template only when two frames in a row do, so a feed whose
   * frames all differ pays nothing for templates it would never use. (Equal signatures with
   * different skeletons only make a template that will not match: matching compares the bytes.)
   */
  signature(length: number): number {
    if (!this.usable) return 0;
    let h = 0;
    let from = 0;
    for (let k = 0; k < this.count; k++) {
      h = (Math.imul(h, 31) + (this.starts[k]! - from) * 64 + this.kinds[k]!) | 0;
      from = this.ends[k]!;
    }
    return (Math.imul(h, 31) + length - from) | 0;
  }

  /** The template of frame `b`, just read member by member; undefined when it cannot be one. */
  build(b: Uint8Array): Template | undefined {
    if (!this.usable) return undefined;
    const n = this.count;
    let size = b.length;
    for (let k = 0; k < n; k++) size -= this.ends[k]! - this.starts[k]!;
    const literal = new Uint8Array(size);
    const runEnds = new Int32Array(n + 1);
    let from = 0;
    let at = 0;
    for (let k = 0; k <= n; k++) {
      const to = k < n ? this.starts[k]! : b.length;
      literal.set(b.subarray(from, to), at);
      at += to - from;
      runEnds[k] = at;
      if (k < n) from = this.ends[k]!;
    }
    const words = new Int32Array(size);
    const view = new DataView(literal.buffer);
    for (let i = 0; i + 4 <= size; i++) words[i] = view.getInt32(i, true);
    const kinds = this.kinds.slice(0, n);
    const absent: number[] = [];
    for (let f = 0; f < FIELD_COUNT; f++) if (!kinds.includes(f)) absent.push(f);
    return { literal, words, runEnds, kinds, absent: Uint8Array.from(absent), timestamped: kinds.includes(ValueKind.TIMESTAMP) };
  }
}

/**
 * Reads frame `b` (`v` and `base`: its bytes as json-bytes.ts reads numbers) as template `t` into `out`: true when `b` is the template's bytes with values of
 * the template's kinds between them, false at the first byte that differs or value that cannot be
 * read (the scanner then reads the frame in full).
 */
export function matchTemplate(t: Template, b: Uint8Array, v: DataView, base: number, out: ScannedFrame): boolean {
  const literal = t.literal;
  const words = t.words;
  const runEnds = t.runEnds;
  const kinds = t.kinds;
  const n = kinds.length;
  const state = out.state;
  const values = out.values;
  const length = b.length;
  if (length < literal.length) return false;
  // Nothing cleared first: every value of the template is written when the frame is read, and
  // what the template lacks is set at the end (cheaper than clearing all before every attempt).
  let p = 0;
  let l = 0;
  for (let k = 0; ; k++) {
    const end = runEnds[k]!;
    // Within the frame (`v` may see the bytes around it); four bytes at a time, the last four
    // overlapping the word before when the run is not a multiple of four long.
    if (p + (end - l) > length) return false;
    if (end - l >= 4) {
      const last = end - 4;
      for (; l < last; l += 4, p += 4) if (v.getInt32(base + p, true) !== words[l]) return false;
      p += last - l;
      if (v.getInt32(base + p, true) !== words[last]) return false;
      p += 4;
      l = end;
    } else for (; l < end; l++, p++) if (b[p] !== literal[l]) return false;
    if (k === n) {
      if (p !== length) return false;
      const absent = t.absent;
      for (let i = 0; i < absent.length; i++) state[absent[i]!] = Slot.ABSENT;
      if (!t.timestamped) out.timestamp = NaN;
      return true;
    }
    const kind = kinds[k]!;
    if (kind < FIELD_COUNT) {
      // A `data` member: a number or null, as the scanner reads it.
      if (b[p] === LOWER_N) {
        p = nul(b, p);
        if (p === FAIL) return false;
        state[kind] = Slot.NULL;
      } else {
        p = num(b, v, base, p);
        if (p === FAIL) return false;
        state[kind] = Slot.NUMBER;
        values[kind] = NUM[0]!;
      }
      continue;
    }
    switch (kind) {
      case ValueKind.MODE: {
        const e = str(b, p);
        if (e === FAIL) return false;
        out.mode = modeOf(b, p + 1, e - 1);
        if (out.mode < 0) return false;
        p = e;
        break;
      }
      case ValueKind.INSTRUMENT: {
        const e = str(b, p);
        if (e === FAIL) return false;
        out.id = decimalId(b, p + 1, e - 1);
        if (out.id < 0) return false;
        p = e;
        break;
      }
      case ValueKind.EXCHANGE: {
        const e = str(b, p);
        if (e === FAIL || e - p === 2) return false;
        out.exStart = p + 1;
        out.exEnd = e - 1;
        p = e;
        break;
      }
      case ValueKind.TIMESTAMP: {
        let e = nul(b, p);
        if (e !== FAIL) out.timestamp = NaN;
        else {
          e = num(b, v, base, p);
          if (e === FAIL) return false;
          out.timestamp = NUM[0]!;
        }
        p = e;
        break;
      }
      default:
        p = scalar(b, v, base, p);
        if (p === FAIL) return false;
    }
  }
}
