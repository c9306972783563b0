/**
 * The indicators of `trading-signals` (a maintained TypeScript library: EMA, RSI, MACD, ATR,
 * Bollinger Bands, Stochastic, VWAP and a hundred more) fed with tarang's candles. Candles carry
 * integer paise; the library computes in floats, so each input goes in as rupees (`toRupees`) and
 * each result comes out in rupees (or the indicator's own unit: RSI 0-100, a ratio). A price made
 * from a result goes back to paise on the tick with `rupeesToTick`, rounded the way that is never
 * worse for you. Decisions that hinge on equality (a crossover) should compare exact values instead:
 * `SMA` and `CrossDetector` beside this file.
 *
 *   const rsi = indicators.rsi(14);
 *   onCandle(c) { const v = rsi.update(c); if (v !== undefined && v < 30) ... }
 *
 * `update` gives `undefined` until the indicator is stable (has seen `warmup` candles), so a
 * strategy declares `warmup: rsi.warmup` and never acts on a half-formed value. Anything else in
 * the library is one line away: `onClose(new TradingSignals.WMA(20))`,
 * `onCandle(new TradingSignals.SuperTrend(...))`.
 */
import * as TradingSignals from 'trading-signals';
import type { Paise } from '../../core/money.js';
import { toRupees } from '../../core/money.js';
import { IST_OFFSET_MS, DAY_MS } from '../../core/time.js';

export { TradingSignals };

/** What an indicator reads from a candle (a CandleEvent has all of it). */
export interface CandleInput {
  readonly open: Paise;
  readonly high: Paise;
  readonly low: Paise;
  readonly close: Paise;
  readonly volume: number;
  /** Start of the candle, epoch ms (session-anchored indicators such as VWAP reset on a new IST day). */
  readonly start?: number;
}

/** The part of a trading-signals indicator the adapter uses. */
export interface LibraryIndicator<R, I> {
  update(input: I, replace: boolean): R | null;
  getRequiredInputs(): number;
  readonly isStable: boolean;
}

/** Rupee candle as the library's candle indicators take it. */
export interface RupeeCandle {
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
  readonly volume: number;
}

const rupeeCandle = (c: CandleInput): RupeeCandle => ({ open: toRupees(c.open), high: toRupees(c.high), low: toRupees(c.low), close: toRupees(c.close), volume: c.volume });
const rupeeClose = (c: CandleInput): number => toRupees(c.close);

/** One library indicator fed tarang candles. */
export class CandleIndicator<R, I = number> {
  private last: R | undefined;

  constructor(
    private readonly inner: LibraryIndicator<R, I>,
    private readonly input: (c: CandleInput) => I,
  ) {}

  /** Feeds a closed candle; returns the value once stable, else undefined. */
  update(c: CandleInput): R | undefined {
    const r = this.inner.update(this.input(c), false);
    this.last = r !== null && this.inner.isStable ? r : undefined;
    return this.last;
  }

  /** The latest stable value, or undefined. */
  get value(): R | undefined {
    return this.last;
  }

  get ready(): boolean {
    return this.last !== undefined;
  }

  /** Candles needed before the first value: declare at least this as the strategy's `warmup`. */
  get warmup(): number {
    return this.inner.getRequiredInputs();
  }
}

/** A library indicator of closing prices (RSI, EMA, WMA, ...), fed candles. */
export function onClose<R>(inner: LibraryIndicator<R, number>): CandleIndicator<R, number> {
  return new CandleIndicator(inner, rupeeClose);
}

/** A library indicator of whole candles (ATR, Stochastic, ...), fed candles in rupees. */
export function onCandle<R, I extends Partial<RupeeCandle>>(inner: LibraryIndicator<R, I>): CandleIndicator<R, I> {
  return new CandleIndicator(inner, rupeeCandle as (c: CandleInput) => I);
}

/**
 * VWAP of the session: the library's VWAP accumulates from its first candle, which over several
 * days would be a multi-day average; this one starts afresh with each IST day's first candle.
 */
export class SessionVwap {
  private vwap = new TradingSignals.VWAP();
  private day = Number.NaN;
  private last: number | undefined;

  update(c: CandleInput): number | undefined {
    if (c.start !== undefined) {
      const day = Math.floor((c.start + IST_OFFSET_MS) / DAY_MS);
      if (day !== this.day) {
        this.vwap = new TradingSignals.VWAP();
        this.day = day;
      }
    }
    const r = this.vwap.update(rupeeCandle(c), false);
    this.last = r ?? undefined;
    return this.last;
  }

  get value(): number | undefined {
    return this.last;
  }

  get ready(): boolean {
    return this.last !== undefined;
  }

  readonly warmup = 1;
}

/** The usual indicators, ready to feed candles. */
export const indicators = {
  /** Relative strength index of closes (Wilder's smoothing), 0-100. */
  rsi: (period = 14) => onClose(new TradingSignals.RSI(period)),
  /** Exponential moving average of closes, rupees. */
  ema: (period: number) => onClose(new TradingSignals.EMA(period)),
  /** Weighted moving average of closes, rupees. */
  wma: (period: number) => onClose(new TradingSignals.WMA(period)),
  /** MACD of closes: `{ macd, signal, histogram }`, rupees. */
  macd: (fast = 12, slow = 26, signal = 9) =>
    onClose(new TradingSignals.MACD(new TradingSignals.EMA(fast), new TradingSignals.EMA(slow), new TradingSignals.EMA(signal))),
  /** Average true range, rupees. */
  atr: (period = 14) => onCandle(new TradingSignals.ATR(period)),
  /** Bollinger bands of closes: `{ lower, middle, upper }`, rupees. */
  bollinger: (period = 20, deviations = 2) => onClose(new TradingSignals.BollingerBands(period, deviations)),
  /** Stochastic oscillator: `{ stochK, stochD }`, 0-100. */
  stochastic: (kPeriod = 14, kSlowingPeriod = 1, dPeriod = 3) => onCandle(new TradingSignals.StochasticOscillator({ kPeriod, kSlowingPeriod, dPeriod })),
  /** Average directional index, 0-100. */
  adx: (period = 14) => onCandle(new TradingSignals.ADX(period)),
  /** Volume-weighted average price of the session (resets each IST day), rupees. */
  vwap: () => new SessionVwap(),
} as const;
