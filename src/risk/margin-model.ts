/**
 * The simulator's margin model: simple, documented, deterministic. Not the exchange's SPAN, but
 * the same shape and the same order of magnitude, so strategies meet realistic funding limits.
 *
 * | What | Margin |
 * |---|---|
 * | Equity CNC buy | 100% of the value |
 * | Equity CNC sell | none (must be covered by holdings) |
 * | Equity INTRADAY | `intradayRate` of the value (default 20%: 5x leverage), either side |
 * | Futures | span `futuresSpanRate` (12%) + exposure `futuresExposureRate` (3%) of the value |
 * | Option buy | the premium (100% of the value) |
 * | Option write | span `optionWriteSpanRate` (12%) + exposure `optionWriteExposureRate` (3%) of strike x qty |
 * | Index option write on its expiry day | the above + `expiryDayExposureRate` (2%) of strike x qty |
 *
 * The part of an order that reduces an open position of the same instrument and product needs no
 * margin. Mark-to-market losses do not reduce the available balance (realised P&L does).
 *
 * What it approximates, and how far off it is: the exchange's SPAN is a scenario loss that moves
 * with volatility and moneyness; the flat 12% of strike value stands in for it and is of the same
 * order for at-the-money index shorts, high for far out-of-the-money ones (their SPAN is a few
 * percent) and low in volatile weeks. Exposure margin is the exchange's extreme-loss margin, 2% of
 * notional for index options and 3.5% or more for stock options: 3% sits between them. The
 * expiry-day add-on is exact in form: SEBI's circular of 2024-10-01 (measures for equity index
 * derivatives, in force from 2024-11-20) adds 2% of notional exposure margin on short index
 * options on their expiry day; it is taken on strike x quantity, as the rest of the write margin.
 */
import { z } from 'zod';
import type { Product, Side } from '../core/enums.js';
import type { Instrument } from '../core/instruments.js';
import type { Paise } from '../core/money.js';
import { ConfigError } from '../core/errors.js';
import { istDate } from '../core/time.js';
import { formatZodIssues } from '../core/zod-issues.js';

const rate = z.number().min(0).max(1);
export const MarginModelOptionsSchema = z
  .object({
    intradayRate: rate.default(0.2),
    futuresSpanRate: rate.default(0.12),
    futuresExposureRate: rate.default(0.03),
    optionWriteSpanRate: rate.default(0.12),
    optionWriteExposureRate: rate.default(0.03),
    /** SEBI 2024: extra exposure margin on short index options on their expiry day (see the header). */
    expiryDayExposureRate: rate.default(0.02),
  })
  .strict();
export type MarginModelOptions = z.input<typeof MarginModelOptionsSchema>;
export type MarginRates = z.output<typeof MarginModelOptionsSchema>;

export interface MarginParts {
  readonly span: Paise;
  readonly exposure: Paise;
  readonly total: Paise;
}

const NONE: MarginParts = Object.freeze({ span: 0, exposure: 0, total: 0 });

export class MarginModel {
  readonly rates: MarginRates;

  /**
   * @param now the time margin is asked at (the caller's Clock), for the expiry-day add-on; without
   *   it the add-on is never applied.
   */
  constructor(
    options: MarginModelOptions = {},
    private readonly now?: () => number,
  ) {
    const parsed = MarginModelOptionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new ConfigError(`matching margin options: ${formatZodIssues(parsed.error)}`, {
        options,
      });
    }
    this.rates = parsed.data;
  }

  /** Margin for opening `qty` (units) at `price` paise. */
  required(instrument: Instrument, side: Side, qty: number, price: Paise, product: Product): MarginParts {
    if (qty <= 0) return NONE;
    const value = qty * price;
    const k = instrument.kind;
    if (k === 'FUTIDX' || k === 'FUTSTK') {
      const span = Math.ceil(value * this.rates.futuresSpanRate);
      const exposure = Math.ceil(value * this.rates.futuresExposureRate);
      return { span, exposure, total: span + exposure };
    }
    if (k === 'OPTIDX' || k === 'OPTSTK') {
      if (side === 'BUY') return { span: 0, exposure: 0, total: value };
      const base = qty * (instrument.strike ?? price);
      const span = Math.ceil(base * this.rates.optionWriteSpanRate);
      const rate = this.rates.optionWriteExposureRate + (this.isExpiryDay(instrument) ? this.rates.expiryDayExposureRate : 0);
      const exposure = Math.ceil(base * rate);
      return { span, exposure, total: span + exposure };
    }
    if (product === 'CNC') return side === 'BUY' ? { span: 0, exposure: 0, total: value } : NONE;
    return { span: 0, exposure: 0, total: Math.ceil(value * this.rates.intradayRate) };
  }

  /** An index option on its expiry date (IST), when the time is known. */
  isExpiryDay(instrument: Instrument): boolean {
    return this.now !== undefined && instrument.kind === 'OPTIDX' && instrument.expiry !== undefined && istDate(this.now()) === instrument.expiry;
  }
}
