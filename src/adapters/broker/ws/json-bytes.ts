/**
 * JSON read straight from bytes, for the tick scanner (tick-scanner.ts) and its frame templates
 * (tick-template.ts). Each reader takes the bytes and a position and returns the position past
 * what it read, or FAIL when the bytes there are not what it reads: a frame these refuse goes to
 * the general decoder (JSON.parse), which reads or reports it. So they only accept a subset of
 * JSON whose meaning is plain: strings of printable ASCII without escapes, numbers without an
 * exponent and with at most MAX_DIGITS digits (each then the same double JSON.parse makes: an
 * integer below 2^53 divided by a power of ten up to 10^22 is correctly rounded, Clinger's fast
 * path).
 */

export const FAIL = -1;
/** Digits a number may have to be read here (below 2^53 whatever they are). */
export const MAX_DIGITS = 15;

export const QUOTE = 0x22;
export const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const LOWER_N = 0x6e;
// Inside the loops below bytes are spelled as literals, not as these constants: a module-level
// constant is a context load and a tag check per use in optimized code (V8 does not fold it), and
// the loops run once a byte of every frame.

const POW10: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Where the last number read by `num` is kept (module scratch: read right after the call). */
export const NUM = new Float64Array(1);
/** The digits `digitRun` has read so far, as an integer. */
const ACC = new Float64Array(1);

/** Whether `b[s, s + key.length)` spells `key` (ASCII). */
export function is(b: Uint8Array, s: number, key: string): boolean {
  for (let i = 0; i < key.length; i++) if (b[s + i] !== key.charCodeAt(i)) return false;
  return true;
}

/** Past JSON whitespace other than a newline (a newline means a batch, not ours: the caller's next check fails on it). */
export function ws(b: Uint8Array, p: number): number {
  for (; p < b.length; p++) {
    const c = b[p]!;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return p;
  }
  return p;
}

/** Past a string of printable ASCII without escapes starting at `p` (a quote), or FAIL. Its contents: [p + 1, result - 1). */
export function str(b: Uint8Array, p: number): number {
  if (b[p] !== 0x22) return FAIL;
  for (let i = p + 1; i < b.length; i++) {
    const c = b[i]!;
    if (c === 0x22) return i + 1;
    if (c === 0x5c || c < 0x20 || c >= 0x7f) return FAIL;
  }
  return FAIL;
}

// Numbers also take `v`, a DataView over b's ArrayBuffer, and `base`, where b starts in it
// (b.byteOffset), to read four bytes at once: V8 checks every typed-array element read, so one
// 32-bit read costs about what one byte read does. The view may see bytes around b (a pooled
// Buffer): it is read only within b.length.

/**
 * Past the digits at `p`, folded into ACC[0] (ACC[0] * 10^n + their value). Four digits at a time
 * where four bytes are left: all four are digits when every high nibble is 3 and adding 6 to each
 * byte leaves it so (no low nibble above 9); then, the first digit in the lowest byte, pairs of
 * digits make two-digit numbers and those one four-digit number, all within 32 bits.
 */
function digitRun(b: Uint8Array, v: DataView, base: number, p: number): number {
  const length = b.length;
  let m = ACC[0]!;
  while (p + 4 <= length) {
    const w = v.getInt32(base + p, true);
    if ((w & 0xf0f0f0f0) !== 0x30303030 || ((w + 0x06060606) & 0xf0f0f0f0) !== 0x30303030) break;
    const d = w - 0x30303030;
    const pairs = (d * 10 + (d >>> 8)) & 0x00ff00ff;
    m = m * 10000 + ((pairs * 100 + (pairs >>> 16)) & 0xffff);
    p += 4;
  }
  for (; p < length; p++) {
    const c = b[p]!;
    if (c < 0x30 || c > 0x39) break;
    m = m * 10 + (c - 0x30);
  }
  ACC[0] = m;
  return p;
}

/**
 * Past a JSON number without an exponent and with at most MAX_DIGITS digits, its value in NUM;
 * FAIL otherwise.
 */
export function num(b: Uint8Array, v: DataView, base: number, p: number): number {
  const neg = b[p] === 0x2d;
  if (neg) p++;
  let m = 0;
  let digits: number;
  let scale = 0;
  const first = b[p];
  if (first === 0x30) {
    p++;
    digits = 1;
  } else if (first !== undefined && first > 0x30 && first <= 0x39) {
    const from = p;
    ACC[0] = 0;
    p = digitRun(b, v, base, p);
    digits = p - from;
    m = ACC[0]!;
  } else return FAIL;
  if (b[p] === 0x2e) {
    const from = ++p;
    ACC[0] = m;
    p = digitRun(b, v, base, p);
    scale = p - from;
    if (scale === 0) return FAIL;
    digits += scale;
    m = ACC[0]!;
  }
  const next = b[p];
  // An exponent, or a digit after a leading zero (invalid JSON: the general path reports it).
  if (next === 0x65 || next === 0x45 || (next !== undefined && next >= 0x30 && next <= 0x39)) return FAIL;
  if (digits > MAX_DIGITS || scale >= POW10.length) return FAIL;
  const n = scale === 0 ? m : m / POW10[scale]!;
  NUM[0] = neg ? -n : n;
  return p;
}

/** Past `null` at `p`, or FAIL. */
export function nul(b: Uint8Array, p: number): number {
  return b[p] === 0x6e && b[p + 1] === 0x75 && b[p + 2] === 0x6c && b[p + 3] === 0x6c ? p + 4 : FAIL;
}

/** Past a string, number, true, false or null; FAIL for anything else (an object or array is not ours). */
export function scalar(b: Uint8Array, v: DataView, base: number, p: number): number {
  const c = b[p];
  if (c === 0x22) return str(b, p);
  if (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39)) return num(b, v, base, p);
  if (c === 0x6e) return nul(b, p);
  if (c === 0x74) return is(b, p, 'true') ? p + 4 : FAIL;
  if (c === 0x66) return is(b, p, 'false') ? p + 5 : FAIL;
  return FAIL;
}

/** The string [s, e) as a plain decimal id (no sign, no leading zero, at most MAX_DIGITS digits); -1 otherwise. */
export function decimalId(b: Uint8Array, s: number, e: number): number {
  const len = e - s;
  if (len === 0 || len > MAX_DIGITS || (len > 1 && b[s] === 0x30)) return -1;
  let n = 0;
  for (let i = s; i < e; i++) {
    const c = b[i]!;
    if (c < 0x30 || c > 0x39) return -1;
    n = n * 10 + (c - 0x30);
  }
  return n;
}
