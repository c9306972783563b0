import type { Paise } from '../../../core/money.js';

/** One candle in tarang's units: `start` epoch ms (covers [start, start+interval)), prices in paise. */
export interface Bar {
  readonly start: number;
  readonly open: Paise;
  readonly high: Paise;
  readonly low: Paise;
  readonly close: Paise;
  readonly volume: number;
  /** Open interest at the close of the bar (derivatives only). */
  readonly oi?: number;
}

/** A candle on the wire (wire-gaps): `ts` epoch seconds, prices in rupees. */
export interface WireCandle {
  readonly ts: number;
  readonly o: number;
  readonly h: number;
  readonly l: number;
  readonly c: number;
  readonly v: number;
  readonly oi?: number;
}

/** `data` of the historical endpoints: per scrip code (or trading symbol) its candles. */
export type HistoricalData = Readonly<Record<string, { readonly candles: readonly WireCandle[] }>>;

/**
 * The live market model's recorded path, so today's candles match the ticks clients saw.
 * `minuteBars` returns the 1-minute bars of `scripCode` from the session open up to (not
 * including) `untilMs`, or undefined when the model does not track that instrument (then the
 * generator is used). Bars must be 1-minute, 09:15-anchored and ascending.
 */
export interface LiveMinuteSource {
  minuteBars(scripCode: string, untilMs: number): readonly Bar[] | undefined;
}
