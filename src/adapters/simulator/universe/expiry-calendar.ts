/**
 * Expiry dates of an underlying from its era rules: weeklies on the era's weekday, monthlies on the
 * last such weekday of the month, each moved to the previous trading day when it falls on a
 * holiday (the exchanges' rule). No weekly is listed in a week that holds the monthly expiry: the
 * monthly contract serves that week.
 */
import { addDays, istMidnight, istWeekday } from '../../../core/time.js';
import type { Era, ExpiryRule } from './reference-data.js';
import type { ExpiryKind, TradingCalendar } from './types.js';

export interface ExpiryDate {
  readonly date: string;
  readonly kind: ExpiryKind;
}

/** The rule in force on `date` (the last era starting on or before it), if any. */
export function eraAt<T>(eras: readonly Era<T>[], date: string): T | undefined {
  let found: T | undefined;
  for (const e of eras) if (e.from <= date) found = e.value;
  return found;
}

function weekday(date: string): number {
  return istWeekday(istMidnight(date));
}

/** Monday of the week containing `date`. */
function mondayOf(date: string): string {
  return addDays(date, 1 - weekday(date));
}

function lastWeekdayOfMonth(year: number, month: number, wd: number): string {
  const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  const back = (weekday(last) - wd + 7) % 7;
  return addDays(last, -back);
}

/** Moves a nominal expiry back to the nearest regular trading day (a weekday that is no holiday). */
export function adjustForHoliday(date: string, calendar: TradingCalendar): string {
  let d = date;
  for (let i = 0; i < 15; i++) {
    if (weekday(d) <= 5 && !calendar.isHoliday(d)) return d;
    d = addDays(d, -1);
  }
  throw new RangeError(`no trading day within 15 days before ${date}`);
}

/** Expiries with dates in [from, to], ascending. */
export function expirySeries(eras: readonly Era<ExpiryRule>[], calendar: TradingCalendar, from: string, to: string): ExpiryDate[] {
  const monthly = new Map<string, string>(); // adjusted date -> nominal
  const weeksWithMonthly = new Set<string>();
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  // One month either side, so weeklies near the window edges know their month's monthly expiry.
  for (let k = fy * 12 + fm - 2; k <= ty * 12 + tm; k++) {
    const y = Math.floor(k / 12);
    const m = (k % 12) + 1;
    const monthEnd = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    let rule = eraAt(eras, monthEnd);
    if (!rule?.monthly) continue;
    let nominal = lastWeekdayOfMonth(y, m, rule.monthly);
    // An era that starts late in the month does not govern an expiry before its start.
    if (eraAt(eras, nominal) !== rule) {
      rule = eraAt(eras, nominal);
      if (!rule?.monthly) continue;
      nominal = lastWeekdayOfMonth(y, m, rule.monthly);
    }
    const adjusted = adjustForHoliday(nominal, calendar);
    monthly.set(adjusted, nominal);
    weeksWithMonthly.add(mondayOf(nominal));
    weeksWithMonthly.add(mondayOf(adjusted));
  }
  const out: ExpiryDate[] = [];
  for (const d of monthly.keys()) if (d >= from && d <= to) out.push({ date: d, kind: 'M' });
  const monthlyDates = new Set(monthly.keys());
  for (let mon = mondayOf(addDays(from, -7)); mon <= addDays(to, 7); mon = addDays(mon, 7)) {
    if (weeksWithMonthly.has(mon)) continue;
    const rule = eraAt(eras, mon) ?? eraAt(eras, addDays(mon, 6));
    if (!rule?.weekly) continue;
    const nominal = addDays(mon, rule.weekly - 1);
    if (eraAt(eras, nominal)?.weekly !== rule.weekly) continue;
    const adjusted = adjustForHoliday(nominal, calendar);
    if (adjusted < from || adjusted > to || monthlyDates.has(adjusted)) continue;
    out.push({ date: adjusted, kind: 'W' });
  }
  out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return out;
}
