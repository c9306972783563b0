/**
 * Digits read four at a time from a little-endian word of text (a DataView's getUint32): which
 * bytes are digits, where the first non-digit is, and what the leading digits are worth, all in
 * registers. The CSV loader's fast path (csv-candles.ts) reads its rows this way: V8 spends about
 * as many instructions on one typed-array read of a byte as on one DataView read of four.
 */

/**
 * The leading digits of a little-endian word of text as a bit mask: bit 7 of each byte that is not
 * an ASCII digit (bytes at and above 0x80 included; a carry out of such a byte only ever lands
 * above the first non-digit, which is all the callers look at).
 */
export function nonDigits(w: number): number {
  const x = w ^ 0x30303030;
  return ((x + 0x76767676) | x) & 0x80808080;
}

/**
 * The value of the first `k` (0..4) digit bytes of word `w` (the digits are known to be digits):
 * shifted to the top of the word, then two multiply-adds over byte pairs.
 */
export function wordDigits(w: number, k: number): number {
  if (k === 0) return 0;
  const x = ((w ^ 0x30303030) << (32 - 8 * k)) >>> 0;
  const pairs = (Math.imul(x, 10) + (x >>> 8)) & 0x00ff00ff;
  return (pairs & 0xff) * 100 + (pairs >>> 16);
}

/** Byte position of the lowest set bit of a non-zero mask from nonDigits. */
export function firstByte(m: number): number {
  return (31 - Math.clz32(m & -m)) >>> 3;
}
