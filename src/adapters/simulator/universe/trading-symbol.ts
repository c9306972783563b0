/**
 * Exchange trading symbols of derivatives, NSE style: monthly `NIFTY26NOV24600CE` and
 * `RELIANCE26NOVFUT`; weekly `NIFTY2611724600PE` (year, a one-character month 1-9/O/N/D, day).
 */
import type { OptionType } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type { ExpiryDate } from './expiry-calendar.js';
import type { ExpiryKind } from './types.js';

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
const WEEKLY_MONTH = '123456789OND';

export function monthName(expiry: string): string {
  return MONTHS[Number(expiry.slice(5, 7)) - 1]!;
}

export function futureSymbol(underlying: string, expiry: string): string {
  return `${underlying}${expiry.slice(2, 4)}${monthName(expiry)}FUT`;
}

/** Strike as the exchange prints it: rupees without trailing zeros (24600, 162.5). */
export function strikeText(strike: Paise): string {
  return String(strike / 100);
}

export function optionSymbol(underlying: string, exp: ExpiryDate, strike: Paise, type: OptionType): string {
  const yy = exp.date.slice(2, 4);
  const when = exp.kind === 'M' ? monthName(exp.date) : `${WEEKLY_MONTH[Number(exp.date.slice(5, 7)) - 1]}${exp.date.slice(8, 10)}`;
  return `${underlying}${yy}${when}${strikeText(strike)}${type}`;
}

/**
 * The expiry a trading symbol's tail names (after the underlying): `26NOV...` a monthly of
 * 2026-11 (prefix `2026-11`), `26N17...` a weekly on 2026-11-17.
 */
export function expiryOfSymbol(tail: string): { kind: ExpiryKind; prefix: string } | undefined {
  const yy = tail.slice(0, 2);
  if (!/^\d{2}$/.test(yy)) return undefined;
  const mon = (MONTHS as readonly string[]).indexOf(tail.slice(2, 5));
  if (mon >= 0) return { kind: 'M', prefix: `20${yy}-${String(mon + 1).padStart(2, '0')}` };
  const wm = WEEKLY_MONTH.indexOf(tail.charAt(2));
  const dd = tail.slice(3, 5);
  if (wm < 0 || !/^\d{2}$/.test(dd)) return undefined;
  return { kind: 'W', prefix: `20${yy}-${String(wm + 1).padStart(2, '0')}-${dd}` };
}
