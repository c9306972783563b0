/**
 * Exchange trading symbols of derivatives, NSE style: monthly `NIFTY26NOV24600CE` and
 * `RELIANCE26NOVFUT`; weekly `NIFTY2611724600PE` (year, a one-character month 1-9/O/N/D, day).
 */
import type { OptionType } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type { ExpiryDate } from './expiry-calendar.js';

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
