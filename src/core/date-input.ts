/**
 * Dates as people and files write them, read at the edges (command-line flags, calendar and
 * config files) with luxon, which knows the calendar (a 30 February is refused, not rolled over).
 * Hot paths (candle bucketing, CSV rows, report times) keep time.ts's fixed-offset arithmetic:
 * IST has had one offset since 1945, and luxon costs microseconds per call where those spend
 * nanoseconds.
 */
import { DateTime, FixedOffsetZone } from 'luxon';

/** IST as a fixed UTC+05:30 offset: no time-zone database lookup (India has no daylight saving). */
const IST = FixedOffsetZone.instance(330);
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Epoch ms of 00:00 IST on a `YYYY-MM-DD` date. Throws RangeError on a malformed or impossible date. */
export function parseIstDate(text: string): number {
  if (!DATE_RE.test(text)) throw new RangeError(`expected a date as YYYY-MM-DD, got ${JSON.stringify(text)}`);
  const d = DateTime.fromFormat(text, 'yyyy-MM-dd', { zone: IST });
  if (!d.isValid) throw new RangeError(`no such date: ${text}`);
  return d.toMillis();
}

/** `YYYY-MM-DD` of a date a YAML file wrote unquoted (the parser makes it a Date at 00:00 UTC). */
export function yamlDate(d: Date): string {
  return DateTime.fromJSDate(d, { zone: 'utc' }).toISODate() ?? 'invalid date';
}
