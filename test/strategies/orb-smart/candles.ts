/** Hand-made minute candles for strategy tests: OHLC in rupees, consecutive from a start time. */
import type { CandleEvent } from '../../../src/core/events.js';
import type { Instrument } from '../../../src/core/instruments.js';
import { parsePaise } from '../../../src/core/money.js';
import { MINUTE_MS, istDateTime } from '../../../src/core/time.js';

export type Ohlc = readonly [open: number, high: number, low: number, close: number];

export function minuteCandles(instrument: string, day: string, from: string, bars: readonly Ohlc[]): CandleEvent[] {
  const t0 = istDateTime(day, from);
  return bars.map(([o, h, l, c], i) => ({
    type: 'candle',
    ts: t0 + (i + 1) * MINUTE_MS,
    instrument,
    interval: '1minute',
    start: t0 + i * MINUTE_MS,
    open: parsePaise(o),
    high: parsePaise(h),
    low: parsePaise(l),
    close: parsePaise(c),
    volume: 1000,
  }));
}

/** `n` quiet bars around `price` (high +0.5, low -0.5), for filling time. */
export function flat(price: number, n: number): Ohlc[] {
  return Array.from({ length: n }, () => [price, price + 0.5, price - 0.5, price] as const);
}

export const HDFCBANK: Instrument = {
  id: 'NSE_1333',
  exchange: 'NSE',
  segment: 'EQUITY',
  securityId: '1333',
  kind: 'EQUITY',
  tradingSymbol: 'HDFCBANK',
  symbol: 'HDFCBANK',
  lotSize: 1,
  tickSize: 5,
  series: 'EQ',
};
