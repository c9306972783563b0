/**
 * ISO 8601 in IST with the +05:30 offset (`2024-01-02T09:15:00.000+05:30`), the same text as
 * core's luxon-based `formatIst`, but ~50x cheaper: a report of 40,000 fills formats 200,000
 * times. IST has no daylight saving, so a fixed shift is exact.
 */
import { IST_OFFSET_MS } from '../../src/core/time.js';

export function isoIst(ts: number): string {
  const s = new Date(ts + IST_OFFSET_MS).toISOString();
  return `${s.slice(0, -1)}+05:30`;
}
