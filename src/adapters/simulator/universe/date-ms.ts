/**
 * Memoised `istMidnight` for the generators, which turn the same few thousand dates into epoch ms
 * millions of times (parsing and validating a date string each time dominated their profiles).
 */
import { istMidnight } from '../../../core/time.js';

const cache = new Map<string, number>();

/** Epoch ms of 00:00 IST on a `YYYY-MM-DD` date (throws RangeError on a malformed one). */
export function dateMs(date: string): number {
  let ms = cache.get(date);
  if (ms === undefined) {
    ms = istMidnight(date);
    if (cache.size > 50_000) cache.clear();
    cache.set(date, ms);
  }
  return ms;
}
