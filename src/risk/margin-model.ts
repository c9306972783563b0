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
 *
 * The part of an order that reduces an open position of the same instrument and product needs no
 * margin. Mark-to-market losses do not reduce the available balance (realised P&L does).
 */
import { z } from 'zod';
import type { Product, Side } from '../core/enums.js';
import type { Instrument } from '../core/instruments.js';
import type { Paise } from '../core/money.js';
import { ConfigError } from '../core/errors.js';
import { formatZodIssues } from '../core/zod-issues.js';

const rate = z.number().min(0).max(1);
export const MarginModelOptionsSchema = z
  .object({
    intradayRate: rate.default(0.2),
    futuresSpanRate: rate.default(0.12),
    futuresExposureRate: rate.default(0.03),
    optionWriteSpanRate: rate.default(0.12),
    optionWriteExposureRate: rate.default(0.03),
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

  constructor(options: MarginModelOptions = {}) {
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
      const exposure = Math.ceil(base * this.rates.optionWriteExposureRate);
      return { span, exposure, total: span + exposure };
    }
    if (product === 'CNC') return side === 'BUY' ? { span: 0, exposure: 0, total: value } : NONE;
    return { span: 0, exposure: 0, total: Math.ceil(value * this.rates.intradayRate) };
  }
}
