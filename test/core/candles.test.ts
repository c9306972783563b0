import { describe, expect, it } from 'vitest';
import { bucketEnd, bucketStart, intervalMs, isInterval, maxRangeMs } from '../../src/core/candles.js';
import { DAY_MS, istDateTime } from '../../src/core/time.js';

const at = (hhmm: string, date = '2024-08-14') => istDateTime(date, hhmm);

describe('candle bucketing anchored to 09:15 IST', () => {
  it('starts 60-minute buckets at 09:15, 10:15, ... 15:15', () => {
    expect(bucketStart(at('09:15'), '60minute')).toBe(at('09:15'));
    expect(bucketStart(at('10:14'), '60minute')).toBe(at('09:15'));
    expect(bucketStart(at('10:15'), '60minute')).toBe(at('10:15'));
    expect(bucketStart(at('15:29'), '60minute')).toBe(at('15:15'));
    expect(bucketStart(at('12:00'), '60minute')).toBe(at('11:15'));
  });

  it('covers [ts, ts + interval): the end minute belongs to the next bucket', () => {
    expect(bucketStart(at('09:19') + 59_999, '5minute')).toBe(at('09:15'));
    expect(bucketStart(at('09:20'), '5minute')).toBe(at('09:20'));
    expect(bucketEnd(at('09:15'), '5minute')).toBe(at('09:20'));
  });

  it('caps the last intraday bucket at the 15:30 close', () => {
    expect(bucketEnd(at('15:15'), '60minute')).toBe(at('15:30'));
    expect(bucketEnd(at('13:15'), '240minute')).toBe(at('15:30'));
    expect(bucketStart(at('13:20'), '240minute')).toBe(at('13:15'));
  });

  it('anchors 75-minute-free intervals like 3minute and 15minute on 09:15', () => {
    expect(bucketStart(at('09:17'), '3minute')).toBe(at('09:15'));
    expect(bucketStart(at('09:18'), '3minute')).toBe(at('09:18'));
    expect(bucketStart(at('09:44'), '15minute')).toBe(at('09:30'));
  });

  it('puts daily, weekly and monthly buckets at 09:15 of their first day', () => {
    expect(bucketStart(at('14:00'), '1day')).toBe(at('09:15'));
    expect(bucketEnd(at('09:15'), '1day')).toBe(at('15:30'));
    expect(bucketStart(at('14:00', '2024-08-16'), '1week')).toBe(at('09:15', '2024-08-12')); // Friday -> Monday
    expect(bucketStart(at('14:00', '2024-08-16'), '1month')).toBe(at('09:15', '2024-08-01'));
  });

  it('knows interval lengths and the per-call maximum ranges of wire-gaps', () => {
    expect(intervalMs('10minute')).toBe(600_000);
    expect(() => intervalMs('1day')).toThrow(RangeError);
    expect(maxRangeMs('30minute')).toBe(7 * DAY_MS);
    expect(maxRangeMs('60minute')).toBe(15 * DAY_MS);
    expect(maxRangeMs('1week')).toBe(365 * DAY_MS);
    expect(isInterval('5minute')).toBe(true);
    expect(isInterval('7minute')).toBe(false);
  });
});
