/**
 * The venue account's mutable records (positions per instrument and product, equity holdings,
 * margin blocked per order) and the read-only snapshots made from them. Only `VenueAccount`
 * mutates these (account.ts).
 */
import type { Product } from '../../../core/enums.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import type { SimHolding, SimPosition } from './types.js';

export interface PositionState {
  readonly instrument: Instrument;
  readonly product: Product;
  netQty: number;
  /** Signed cost of the open quantity, paise. */
  openValue: number;
  buyQty: number;
  buyValue: number;
  sellQty: number;
  sellValue: number;
  dayBuyQty: number;
  dayBuyValue: number;
  daySellQty: number;
  daySellValue: number;
  realizedPnl: number;
  lastPrice: Paise | undefined;
  margin: Paise;
}

export interface HoldingState {
  readonly instrument: Instrument;
  t1Qty: number;
  t1Value: number;
  dpQty: number;
  dpValue: number;
  /** Blocked by open CNC sell orders. */
  usedQty: number;
}

export interface OrderBlock {
  readonly margin: Paise;
  /** CNC sell quantity blocked against holdings. */
  readonly holdingQty: number;
  readonly instrument: string;
}

export function key(instrument: string, product: Product): string {
  return `${instrument}|${product}`;
}

export function unrealized(p: PositionState): Paise {
  if (p.netQty === 0 || p.lastPrice === undefined) return 0;
  return p.netQty * p.lastPrice - p.openValue;
}

export function positionSnapshot(p: PositionState): SimPosition {
  const i = p.instrument;
  return {
    instrument: i.id,
    securityId: i.securityId,
    tradingSymbol: i.tradingSymbol,
    exchange: i.exchange,
    segment: i.segment,
    product: p.product,
    netQty: p.netQty,
    avgPrice: p.netQty === 0 ? 0 : Math.abs(p.openValue / p.netQty),
    openValue: p.openValue,
    buyQty: p.buyQty,
    buyValue: p.buyValue,
    sellQty: p.sellQty,
    sellValue: p.sellValue,
    dayBuyQty: p.dayBuyQty,
    dayBuyValue: p.dayBuyValue,
    daySellQty: p.daySellQty,
    daySellValue: p.daySellValue,
    realizedPnl: p.realizedPnl,
    unrealizedPnl: unrealized(p),
    ...(p.lastPrice !== undefined ? { lastPrice: p.lastPrice } : {}),
    ...(i.expiry !== undefined ? { expiry: i.expiry } : {}),
    ...(i.optionType !== undefined ? { optionType: i.optionType } : {}),
    ...(i.strike !== undefined ? { strike: i.strike } : {}),
  };
}

export function holdingSnapshot(h: HoldingState): SimHolding {
  const total = h.t1Qty + h.dpQty;
  return {
    instrument: h.instrument.id,
    securityId: h.instrument.securityId,
    tradingSymbol: h.instrument.tradingSymbol,
    totalQty: total,
    usedQty: h.usedQty,
    avgPrice: total === 0 ? 0 : (h.t1Value + h.dpValue) / total,
    t1Qty: h.t1Qty,
    t1AvgPrice: h.t1Qty === 0 ? 0 : h.t1Value / h.t1Qty,
    dpQty: h.dpQty,
    dpAvgPrice: h.dpQty === 0 ? 0 : h.dpValue / h.dpQty,
  };
}
