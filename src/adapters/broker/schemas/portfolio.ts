/** Holdings and positions (spec 4.8; fields from wire-gaps "Portfolio, margin"). */
import { z } from 'zod';
import { idStr, int, optInt, optNum, optPaise, optStr } from './common.js';

export const HoldingSchema = z
  .object({
    security_id: idStr,
    symbol: optStr,
    isin: optStr,
    total_qty: int,
    used_qty: optInt,
    avg_price: optPaise,
    t1_qty: optInt,
    t1_avg_price: optPaise,
    dp_qty: optInt,
    dp_avg_price: optPaise,
  })
  .transform((h) => ({
    securityId: h.security_id,
    symbol: h.symbol,
    isin: h.isin,
    qty: h.total_qty,
    usedQty: h.used_qty ?? 0,
    avgPrice: h.avg_price,
    t1Qty: h.t1_qty ?? 0,
    dpQty: h.dp_qty ?? 0,
  }));
export type Holding = z.output<typeof HoldingSchema>;
export const HoldingsSchema = z.array(HoldingSchema);

/**
 * P&L and traded values are rupee amounts that need not be whole paise (averages of many fills);
 * they stay numbers. Quantities are integers and prices paise.
 */
export const PositionSchema = z
  .object({
    position_id: optStr,
    security_id: idStr,
    symbol: optStr,
    segment: optStr,
    product: optStr,
    exchange: optStr,
    net_qty: int,
    avg_price: optNum,
    buy_qty: optInt,
    buy_avg: optNum,
    sell_qty: optInt,
    sell_avg: optNum,
    realized_profit: optNum,
    day_buy_qty: optInt,
    day_buy_val: optNum,
    day_sell_qty: optInt,
    day_sell_val: optNum,
    drv_expiry_date: optStr,
    drv_option_type: optStr,
    drv_strike_price: optPaise,
  })
  .transform((p) => ({
    positionId: p.position_id,
    securityId: p.security_id,
    symbol: p.symbol,
    segment: p.segment,
    product: p.product,
    exchange: p.exchange,
    netQty: p.net_qty,
    avgPrice: p.avg_price,
    buyQty: p.buy_qty ?? 0,
    buyAvg: p.buy_avg,
    sellQty: p.sell_qty ?? 0,
    sellAvg: p.sell_avg,
    realizedProfit: p.realized_profit ?? 0,
    dayBuyQty: p.day_buy_qty ?? 0,
    dayBuyValue: p.day_buy_val ?? 0,
    daySellQty: p.day_sell_qty ?? 0,
    daySellValue: p.day_sell_val ?? 0,
    expiry: p.drv_expiry_date,
    optionType: p.drv_option_type,
    strike: p.drv_strike_price,
  }));
export type Position = z.output<typeof PositionSchema>;
/** Positions come as a list, or wrapped as `{positions: [...]}` / `{net_positions: [...]}`. */
export const PositionsSchema = z.union([
  z.array(PositionSchema),
  z.object({ positions: z.array(PositionSchema) }).transform((p) => p.positions),
  z.object({ net_positions: z.array(PositionSchema) }).transform((p) => p.net_positions),
]);

export type PositionSegment = 'equity' | 'derivative';
export type PositionProduct = 'cnc' | 'intraday' | 'margin';
