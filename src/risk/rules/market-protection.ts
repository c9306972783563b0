/**
 * Market protection (SEBI's retail-algo framework; the value is dated data in
 * config/market-rules/retail-algo.yaml): a MARKET order reaches the exchange as a LIMIT order at
 * the last price plus (buy) or minus (sell) the protection percentage, rounded to the tick towards
 * the last price, clamped to the price band, at least one tick. A gap wider than that leaves it
 * unfilled rather than filled anywhere.
 *
 * One rule, three users: the simulator's matching engine prices MARKET orders with it (paper and
 * backtest share that engine) and says so in the order book; risk values a MARKET order at the
 * same price, so margin and order-value checks see what the broker will block.
 */
import type { Side } from '../../core/enums.js';
import { formatRupees, roundToTick, type Paise } from '../../core/money.js';
import { retailAlgoRules } from './retail-algo.js';

/** The protection percentage tarang uses unless configured (retail-algo.yaml). */
export function defaultMarketProtectionPct(): number {
  return retailAlgoRules().marketProtectionPct;
}

/** The limit a MARKET order gets from reference price `ref` (see the file comment). */
export function protectionPrice(side: Side, ref: Paise, protectionPct: number, tick: Paise, upper: Paise | undefined, lower: Paise | undefined): Paise {
  const pct = protectionPct / 100;
  let p = side === 'BUY' ? roundToTick(ref * (1 + pct), tick, 'down') : roundToTick(ref * (1 - pct), tick, 'up');
  if (upper !== undefined && p > upper) p = upper;
  if (lower !== undefined && p < lower) p = lower;
  if (p <= 0) p = tick;
  return p;
}

/** What the order book says of a MARKET order placed as a protected LIMIT. */
export function marketProtectionNote(limitPrice: Paise, protectionPct: number): string {
  return `MARKET order placed as LIMIT at ${formatRupees(limitPrice)} (market protection ${protectionPct}%)`;
}
