/**
 * Option chain and greeks (spec 2.10, 4.3, 4.4). The current chain's field names are "not shown",
 * so its rows are kept as loose records whose known numeric members are decoded tolerantly; the
 * announced utility endpoints have documented rows.
 */
import { z } from 'zod';
import { num, optStr } from './common.js';

export const ChainSymbolRowSchema = z
  .object({
    exchange: optStr,
    symbol: z.string(),
    token: z.union([z.string(), z.number()]).transform(String),
    optionType: z.enum(['CE', 'PE']),
    strikePrice: num,
    pricePrecision: num.optional(),
    tickSize: num.optional(),
    lotSize: num.optional(),
  })
  .loose();
export const ChainSymbolRowsSchema = z.array(ChainSymbolRowSchema);

export const GreeksSchema = z.object({ iv: num, delta: num, gamma: num, theta: num, vega: num }).loose();
export const GreeksListSchema = z.array(GreeksSchema);
export type Greeks = z.output<typeof GreeksSchema>;

export const ChainExpiriesSchema = z.object({ expiries: z.array(z.string()) }).transform((d) => d.expiries);

/** The current chain: whatever structure the broker sends, as long as it is JSON data. */
export const OptionChainSchema = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);
export type OptionChain = z.output<typeof OptionChainSchema>;

export interface OptionChainQuery {
  readonly exchange: string;
  readonly segment: 'INDEX' | 'EQUITY';
  readonly underlyingScrip: string;
  readonly expiry: string;
  readonly strikeCount?: number;
}
