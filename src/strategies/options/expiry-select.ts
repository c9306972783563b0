/**
 * Picks the expiry an `ExpirySelector` means from a list of expiry dates (spec 4.5: the upcoming
 * list is ascending, the expired list descending; both are accepted). Dates are `YYYY-MM-DD`, so
 * string order is date order.
 *
 * A monthly expiry is the last expiry of its calendar month; the others are weeklies. That rule
 * holds for NSE index options whatever the weekday of expiry (it moved from Thursday to Tuesday
 * in 2025) and survives holidays that move an expiry a day earlier.
 */
import { addDays } from '../../core/time.js';
import type { ExpirySelector } from './option-data.js';

export interface ExpiryChoice {
  /** Expiries on or after this date are candidates (the trading day, `YYYY-MM-DD`). */
  readonly today: string;
  /** Skip expiries fewer than this many calendar days away (0: expiry day itself is allowed). */
  readonly minDaysToExpiry?: number;
}

export function isMonthlyExpiry(expiry: string, all: readonly string[]): boolean {
  const month = expiry.slice(0, 7);
  return !all.some((e) => e > expiry && e.slice(0, 7) === month);
}

/** The expiry the selector names, or undefined when none qualifies. */
export function selectExpiry(selector: ExpirySelector, expiries: readonly string[], choice: ExpiryChoice): string | undefined {
  const sorted = [...new Set(expiries)].sort();
  const earliest = addDays(choice.today, choice.minDaysToExpiry ?? 0);
  if (typeof selector === 'object') return sorted.includes(selector.date) && selector.date >= choice.today ? selector.date : undefined;
  const upcoming = sorted.filter((e) => e >= earliest);
  if (selector === 'nearest') return upcoming[0];
  return upcoming.find((e) => isMonthlyExpiry(e, sorted));
}

