import { describe, expect, it } from 'vitest';
import { formatIst, IST_OFFSET_MS } from '../../src/core/time.js';

/** What formatIst has always written: the Date's ISO text shifted to IST. */
function viaDate(ts: number): string {
  const d = new Date(ts + IST_OFFSET_MS);
  return Number.isNaN(d.getTime()) ? String(ts) : `${d.toISOString().slice(0, 23)}+05:30`;
}

describe('formatIst', () => {
  it('writes an IST time with its offset', () => {
    expect(formatIst(Date.UTC(2024, 0, 2, 3, 45))).toBe('2024-01-02T09:15:00.000+05:30');
    expect(formatIst(Date.UTC(2024, 0, 1, 18, 29, 59, 999))).toBe('2024-01-01T23:59:59.999+05:30');
    expect(formatIst(Date.UTC(2024, 0, 1, 18, 30))).toBe('2024-01-02T00:00:00.000+05:30');
  });

  it('writes exactly what the Date ISO text gives, across days, years and odd inputs', () => {
    const cases = [0, -IST_OFFSET_MS, -IST_OFFSET_MS - 1, -1, -0, 1.5, -2.5, Number.NaN, Number.POSITIVE_INFINITY, 8.64e15, 8.64e15 + 1, 253_402_300_800_000 - IST_OFFSET_MS - 1, 253_402_300_800_000 - IST_OFFSET_MS];
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      // Anywhere from 1960 to 2100, often near a midnight.
      const ts = -3e11 + (seed / 2 ** 31) * 4.4e12;
      cases.push(Math.round(ts), Math.round(ts / 86_400_000) * 86_400_000 - IST_OFFSET_MS + (i % 3) - 1);
    }
    for (const ts of cases) expect(formatIst(ts), String(ts)).toBe(viaDate(ts));
  });
});
