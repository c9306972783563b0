/**
 * Candle intervals and bucketing (spec 4.2): a candle stamped `ts` covers [ts, ts + interval),
 * and intraday buckets are anchored to the 09:15 IST session open, not to wall-clock boundaries
 * (so 60-minute candles start 09:15, 10:15, ... 15:15). Daily and longer candles start at the
 * session open of their first trading day.
 */
import { DAY_MS, IST_OFFSET_MS, MINUTE_MS, istDayStart, istWeekday } from './time.js';

export const INTRADAY_INTERVALS = {
  '1minute': 1,
  '2minute': 2,
  '3minute': 3,
  '4minute': 4,
  '5minute': 5,
  '10minute': 10,
  '15minute': 15,
  '30minute': 30,
  '60minute': 60,
  '120minute': 120,
  '180minute': 180,
  '240minute': 240,
} as const;

export const Interval = {
  ...Object.fromEntries(Object.keys(INTRADAY_INTERVALS).map((k) => [k, k])),
  '1day': '1day',
  '1week': '1week',
  '1month': '1month',
} as { readonly [K in IntervalName]: K };

type IntradayName = keyof typeof INTRADAY_INTERVALS;
type IntervalName = IntradayName | '1day' | '1week' | '1month';
export type Interval = IntervalName;

export const ALL_INTERVALS: readonly Interval[] = [
  ...(Object.keys(INTRADAY_INTERVALS) as IntradayName[]),
  '1day',
  '1week',
  '1month',
];

/** Maximum range one historical call returns, per wire-gaps (wider windows are truncated). */
export function maxRangeMs(interval: Interval): number {
  if (isIntraday(interval)) return INTRADAY_INTERVALS[interval] <= 30 ? 7 * DAY_MS : 15 * DAY_MS;
  return 365 * DAY_MS;
}

export function isInterval(s: string): s is Interval {
  return (ALL_INTERVALS as readonly string[]).includes(s);
}

export function isIntraday(i: Interval): i is IntradayName {
  return i in INTRADAY_INTERVALS;
}

/** Length of an intraday interval in ms. Throws for daily and longer (their length varies). */
export function intervalMs(i: Interval): number {
  if (!isIntraday(i)) throw new RangeError(`interval ${i} has no fixed length`);
  return INTRADAY_INTERVALS[i] * MINUTE_MS;
}

/** Session open used for anchoring: 09:15 IST. */
export const SESSION_OPEN_MINUTE = 9 * 60 + 15;
export const SESSION_CLOSE_MINUTE = 15 * 60 + 30;

/**
 * Start of the bucket containing `ts`. For intraday intervals the anchor is 09:15 IST of that
 * day (a time before 09:15 belongs to a bucket anchored the same way, counted backwards; callers
 * that care about sessions check the calendar first). For 1day the anchor is 09:15 of the day; for
 * 1week the Monday of the week; for 1month the first of the month (all at 09:15 IST).
 */
export function bucketStart(ts: number, interval: Interval): number {
  const day = istDayStart(ts);
  const anchor = day + SESSION_OPEN_MINUTE * MINUTE_MS;
  if (isIntraday(interval)) {
    const len = INTRADAY_INTERVALS[interval] * MINUTE_MS;
    return anchor + Math.floor((ts - anchor) / len) * len;
  }
  if (interval === '1day') return anchor;
  if (interval === '1week') return anchor - (istWeekday(ts) - 1) * DAY_MS;
  const d = new Date(ts + IST_OFFSET_MS);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - IST_OFFSET_MS + SESSION_OPEN_MINUTE * MINUTE_MS;
}

/**
 * End (exclusive) of the bucket starting at `start`, capped at the session close for intraday
 * buckets (the last 60-minute bucket, 15:15, closes at 15:30). For daily and longer: the session
 * close of the bucket's last calendar day.
 */
export function bucketEnd(start: number, interval: Interval): number {
  const day = istDayStart(start);
  const close = day + SESSION_CLOSE_MINUTE * MINUTE_MS;
  if (isIntraday(interval)) {
    const end = start + INTRADAY_INTERVALS[interval] * MINUTE_MS;
    // Buckets wholly outside the regular session (special sessions) keep their full length.
    return start < close && end > close ? close : end;
  }
  if (interval === '1day') return close;
  if (interval === '1week') return close + 4 * DAY_MS;
  const d = new Date(start + IST_OFFSET_MS);
  const nextMonth = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - IST_OFFSET_MS;
  return nextMonth - DAY_MS + SESSION_CLOSE_MINUTE * MINUTE_MS;
}
