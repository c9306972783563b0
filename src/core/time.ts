/**
 * IST date arithmetic. India has no daylight saving: IST is always UTC+05:30, so day boundaries
 * are plain arithmetic (fast enough for per-tick use), formatting included.
 */

export const IST_OFFSET_MS = 330 * 60_000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Epoch ms of 00:00 IST on the IST day containing `ts`. */
export function istDayStart(ts: number): number {
  return Math.floor((ts + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
}

/** `YYYY-MM-DD` of the IST day containing `ts`. */
export function istDate(ts: number): string {
  return new Date(ts + IST_OFFSET_MS).toISOString().slice(0, 10);
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch ms of 00:00 IST on a `YYYY-MM-DD` date. Throws RangeError on a malformed date. */
export function istMidnight(date: string): number {
  const m = DATE_RE.exec(date);
  if (!m) throw new RangeError(`expected a date as YYYY-MM-DD, got ${JSON.stringify(date)}`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(ms).toISOString().slice(0, 10) !== date) throw new RangeError(`no such date: ${date}`);
  return ms - IST_OFFSET_MS;
}

/** Epoch ms of `HH:MM` (or `HH:MM:SS`) IST on a `YYYY-MM-DD` date. */
export function istDateTime(date: string, time: string): number {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  if (!m) throw new RangeError(`expected a time as HH:MM, got ${JSON.stringify(time)}`);
  const h = Number(m[1]);
  const min = Number(m[2]);
  const s = Number(m[3] ?? 0);
  if (h > 23 || min > 59 || s > 59) throw new RangeError(`no such time: ${time}`);
  return istMidnight(date) + h * HOUR_MS + min * MINUTE_MS + s * 1000;
}

/** The IST day formatIst wrote last and its `YYYY-MM-DDT`: reports format many times a day. */
let formattedDay = Number.NaN;
let formattedDate = '';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** ISO 8601 with the +05:30 offset, e.g. `2024-01-02T09:15:00.000+05:30`. */
export function formatIst(ts: number): string {
  // Plain arithmetic, like the rest of this file (IST has had one offset since 1945): luxon's
  // zone set-up alone cost ~20 ms on first use, and reports format every fill (a 1M-candle run's
  // report formats 36,000 times). A whole millisecond in years 1970-9999 is put together from the
  // day's date (one Date per day) and the time of day, exactly as toISOString writes them.
  const t = ts + IST_OFFSET_MS;
  if (t >= 0 && t < 253_402_300_800_000 && Number.isInteger(t)) {
    const day = Math.floor(t / DAY_MS);
    if (day !== formattedDay) {
      formattedDay = day;
      formattedDate = new Date(day * DAY_MS).toISOString().slice(0, 11);
    }
    const ms = t - day * DAY_MS;
    const h = Math.floor(ms / HOUR_MS);
    const m = Math.floor((ms - h * HOUR_MS) / MINUTE_MS);
    const sec = Math.floor((ms - h * HOUR_MS - m * MINUTE_MS) / 1000);
    return `${formattedDate}${pad2(h)}:${pad2(m)}:${pad2(sec)}.${pad3(ms % 1000)}+05:30`;
  }
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return String(ts);
  return `${d.toISOString().slice(0, 23)}+05:30`;
}

/** Day of week of an IST date: 1 = Monday ... 7 = Sunday. */
export function istWeekday(ts: number): number {
  const d = new Date(ts + IST_OFFSET_MS).getUTCDay();
  return d === 0 ? 7 : d;
}

/** Adds whole days to a `YYYY-MM-DD` date. */
export function addDays(date: string, days: number): string {
  return istDate(istMidnight(date) + days * DAY_MS);
}
