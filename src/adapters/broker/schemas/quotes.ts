/**
 * Quotes (spec 2.4, 4.2; market depth shape from wire-gaps). Data keyed by scrip code. Prices
 * become paise; quantities may come as digit-grouped strings ("5,82,909").
 */
import { z } from 'zod';
import { int, num, optInt, optNum, optPaise, paise } from './common.js';

const DepthSide = z.object({ quantity: optInt, price: optPaise }).transform((s) => ({ qty: s.quantity ?? 0, price: s.price }));

export const MarketDepthSchema = z
  .object({
    aggregate: z
      .object({ total_buy: optInt, total_sell: optInt, buy_percentage: optNum, sell_percentage: optNum })
      .optional(),
    depth: z.array(z.object({ buy: DepthSide.optional(), sell: DepthSide.optional() })).default([]),
  })
  .transform((d) => ({
    totalBuyQty: d.aggregate?.total_buy,
    totalSellQty: d.aggregate?.total_sell,
    buyPercentage: d.aggregate?.buy_percentage,
    sellPercentage: d.aggregate?.sell_percentage,
    bids: d.depth.flatMap((l) => (l.buy && l.buy.price !== undefined ? [{ price: l.buy.price, qty: l.buy.qty }] : [])),
    asks: d.depth.flatMap((l) => (l.sell && l.sell.price !== undefined ? [{ price: l.sell.price, qty: l.sell.qty }] : [])),
  }));
export type MarketDepth = z.output<typeof MarketDepthSchema>;

export const FullQuoteSchema = z
  .object({
    live_price: paise,
    day_change: optPaise,
    day_change_percentage: optNum,
    day_low: optPaise,
    day_high: optPaise,
    day_open: optPaise,
    prev_close: optPaise,
    '52week_high': optPaise,
    '52week_low': optPaise,
    upper_circuit: optPaise,
    lower_circuit: optPaise,
    market_depth: z.union([MarketDepthSchema, z.literal(''), z.null()]).optional(),
    volume: optInt,
  })
  .transform((q) => ({
    ltp: q.live_price,
    change: q.day_change,
    changePct: q.day_change_percentage,
    open: q.day_open,
    high: q.day_high,
    low: q.day_low,
    prevClose: q.prev_close,
    high52w: q['52week_high'],
    low52w: q['52week_low'],
    upperCircuit: q.upper_circuit,
    lowerCircuit: q.lower_circuit,
    depth: q.market_depth || undefined,
    volume: q.volume,
  }));
export type FullQuote = z.output<typeof FullQuoteSchema>;

/**
 * A full quote read for its circuit band alone (the daemon refreshes 3,000 instruments' bands):
 * the rest, the market depth above all, is neither validated nor kept. Decoding whole quotes cost
 * ~50 ms of the event loop and a burst of garbage per 1,000 (ticks waited behind it).
 */
export const CircuitQuoteSchema = z
  .object({ upper_circuit: optPaise, lower_circuit: optPaise })
  .transform((q) => ({ upperCircuit: q.upper_circuit, lowerCircuit: q.lower_circuit }));
export type CircuitQuote = z.output<typeof CircuitQuoteSchema>;

export const LtpQuoteSchema = z.object({ live_price: paise }).transform((q) => ({ ltp: q.live_price }));
export type LtpQuote = z.output<typeof LtpQuoteSchema>;

/** `/market/quotes/mkt`: depth per scrip, either bare or wrapped in `market_depth`. */
export const DepthQuoteSchema = z.union([z.object({ market_depth: MarketDepthSchema }).transform((q) => q.market_depth), MarketDepthSchema]);

export const FullQuotesSchema = z.record(z.string(), FullQuoteSchema);
export const LtpQuotesSchema = z.record(z.string(), LtpQuoteSchema);
export const CircuitQuotesSchema = z.record(z.string(), CircuitQuoteSchema);
export const DepthQuotesSchema = z.record(z.string(), DepthQuoteSchema);

/** Re-exported for callers that only need a loose number. */
export { int, num };
