import { describe, expect, it } from 'vitest';
import { firstByte, nonDigits, wordDigits } from '../../../backtest/data/digit-words.js';

/** The word of four bytes as getUint32(p, true) reads it. */
const word = (bytes: readonly number[]): number => new DataView(Uint8Array.from(bytes).buffer).getUint32(0, true);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

describe('digit words', () => {
  it('find the leading digits of every word of digits, separators and high bytes, and sum them', () => {
    // Digits, their neighbours in ASCII, separators, and bytes whose low bits look like digits.
    const alphabet = [0x30, 0x35, 0x39, 0x2f, 0x3a, 0x2c, 0x0a, 0x00, 0x7f, 0x80, 0xb9, 0xff];
    const wrong: string[] = [];
    let words = 0;
    for (const a of alphabet) for (const b of alphabet) for (const c of alphabet) for (const d of alphabet) {
      const bytes = [a, b, c, d];
      const w = word(bytes);
      let lead = 0;
      while (lead < 4 && isDigit(bytes[lead]!)) lead++;
      const m = nonDigits(w);
      const value = lead === 0 ? 0 : Number(String.fromCharCode(...bytes.slice(0, lead)));
      if ((m === 0 ? 4 : firstByte(m)) !== lead || wordDigits(w, lead) !== value) wrong.push(bytes.join(','));
      words++;
    }
    expect(wrong).toEqual([]);
    expect(words).toBe(alphabet.length ** 4);
  });
});
