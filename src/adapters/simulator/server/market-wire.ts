/**
 * Quote shapes (spec 2.4, wire-gaps "Market depth"). Depth numbers are strings with Indian digit
 * grouping ("5,82,909"), as observed on the live service; the other quote members are numbers.
 */
import { toRupees } from '../../../core/money.js';
import type { MarketQuote } from './venue.js';

const qtyFmt = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
const pxFmt = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function indianQty(n: number): string {
  return qtyFmt.format(n);
}

export function indianPrice(paise: number): string {
  return pxFmt.format(paise / 100);
}

export function marketDepthWire(q: MarketQuote): Record<string, unknown> {
  const totalBuy = q.totalBuyQty;
  const totalSell = q.totalSellQty;
  const total = totalBuy + totalSell;
  const levels: Record<string, unknown>[] = [];
  for (let i = 0; i < 5; i++) {
    const b = q.depth.bids[i];
    const a = q.depth.asks[i];
    levels.push({
      buy: { quantity: indianQty(b?.qty ?? 0), price: indianPrice(b?.price ?? 0) },
      sell: { quantity: indianQty(a?.qty ?? 0), price: indianPrice(a?.price ?? 0) },
    });
  }
  return {
    aggregate: {
      total_buy: indianQty(totalBuy),
      total_sell: indianQty(totalSell),
      buy_percentage: total > 0 ? ((100 * totalBuy) / total).toFixed(2) : '0.00',
      sell_percentage: total > 0 ? ((100 * totalSell) / total).toFixed(2) : '0.00',
    },
    depth: levels,
  };
}

export function fullQuoteWire(q: MarketQuote): Record<string, unknown> {
  return {
    live_price: toRupees(q.ltp),
    day_change: toRupees(q.dayChange),
    day_change_percentage: q.dayChangePct,
    day_low: toRupees(q.low),
    day_high: toRupees(q.high),
    day_open: toRupees(q.open),
    prev_close: toRupees(q.prevClose),
    '52week_high': toRupees(q.week52High),
    '52week_low': toRupees(q.week52Low),
    upper_circuit: toRupees(q.upperCircuit),
    lower_circuit: toRupees(q.lowerCircuit),
    market_depth: marketDepthWire(q),
    volume: q.volume,
    ...(q.oi !== undefined ? { open_interest: q.oi } : {}),
    last_trade_time: q.ltt,
  };
}

export function ltpQuoteWire(q: MarketQuote): Record<string, unknown> {
  return { live_price: toRupees(q.ltp), last_trade_time: q.ltt };
}

export function depthQuoteWire(q: MarketQuote): Record<string, unknown> {
  return { live_price: toRupees(q.ltp), market_depth: marketDepthWire(q) };
}
