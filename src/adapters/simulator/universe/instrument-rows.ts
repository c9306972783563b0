/**
 * The `Instrument` records the universe lists: equities (tick size from the NSE price band) and
 * derivative contracts (with their display names).
 */
import type { Exchange } from '../../../core/enums.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import { PRICE_BAND_TICKS } from './reference-data.js';
import type { Contract } from './types.js';

export function equityInstrument(exchange: Exchange, securityId: string, symbol: string, name: string, price: number, series: string): Instrument {
  return {
    id: `${exchange}_${securityId}`,
    exchange,
    segment: 'EQUITY',
    securityId,
    kind: 'EQUITY',
    tradingSymbol: symbol,
    symbol,
    lotSize: 1,
    tickSize: priceBandTick(price),
    series,
    displayName: name,
  };
}

export function contractInstrument(c: Contract): Instrument {
  const securityId = c.securityId!;
  // Plain literals (no spreads): this runs for every current contract, tens of thousands of times.
  if (c.strike !== null && c.optionType !== null) {
    return {
      id: (c.exchange === 'BSE' ? 'BFO_' : 'NFO_') + securityId,
      exchange: c.exchange,
      segment: 'FNO',
      securityId,
      kind: c.instrumentType,
      tradingSymbol: c.tradingSymbol,
      symbol: c.underlying,
      lotSize: c.lotSize,
      tickSize: c.tickSize,
      expiry: c.expiry,
      strike: c.strike,
      optionType: c.optionType,
      displayName: describeContract(c),
    };
  }
  return {
    id: (c.exchange === 'BSE' ? 'BFO_' : 'NFO_') + securityId,
    exchange: c.exchange,
    segment: 'FNO',
    securityId,
    kind: c.instrumentType,
    tradingSymbol: c.tradingSymbol,
    symbol: c.underlying,
    lotSize: c.lotSize,
    tickSize: c.tickSize,
    expiry: c.expiry,
    displayName: describeContract(c),
  };
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;

/** `NIFTY 24 NOV 2026 24600 CE`, `RELIANCE 24 NOV 2026 FUT`. */
export function describeContract(c: Contract): string {
  const e = c.expiry;
  const tail = c.strike === null ? 'FUT' : `${c.strike / 100} ${c.optionType}`;
  return `${c.underlying} ${e.slice(8, 10)} ${MONTH_NAMES[Number(e.slice(5, 7)) - 1]} ${e.slice(0, 4)} ${tail}`;
}

/** The NSE cash tick for a price level (rupees), paise. */
export function priceBandTick(price: number): Paise {
  for (const [below, tick] of PRICE_BAND_TICKS) if (price < below) return Math.round(tick * 100);
  return 500;
}
