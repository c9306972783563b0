/**
 * Trading vocabulary shared by every component, as `as const` objects with derived unions.
 * Wire spellings live in the broker codec; these are tarang's own, and happen to match the
 * broker's where the broker is unambiguous.
 */
export const Side = { BUY: 'BUY', SELL: 'SELL' } as const;
export type Side = (typeof Side)[keyof typeof Side];

export const OrderType = {
  MARKET: 'MARKET',
  LIMIT: 'LIMIT',
  /** Stop order: triggers at `triggerPrice`, then works as LIMIT at `limitPrice` or as MARKET when absent. */
  STOP_LOSS: 'STOP_LOSS',
} as const;
export type OrderType = (typeof OrderType)[keyof typeof OrderType];

export const Validity = { DAY: 'DAY', IOC: 'IOC' } as const;
export type Validity = (typeof Validity)[keyof typeof Validity];

export const Product = { CNC: 'CNC', INTRADAY: 'INTRADAY', MARGIN: 'MARGIN' } as const;
export type Product = (typeof Product)[keyof typeof Product];

export const Exchange = { NSE: 'NSE', BSE: 'BSE' } as const;
export type Exchange = (typeof Exchange)[keyof typeof Exchange];

/** Segment as the instrument master and orders name it. INDEX instruments cannot be traded. */
export const Segment = { EQUITY: 'EQUITY', FNO: 'FNO', CURRENCY: 'CURRENCY', INDEX: 'INDEX' } as const;
export type Segment = (typeof Segment)[keyof typeof Segment];

/**
 * tarang's normalised order status. The broker's many spellings (spec 3.1, wire-gaps "Status
 * values", one-letter codes on the stream) map onto these in the codec.
 */
export const OrderStatus = {
  /** Sent to the broker, no answer yet. */
  PENDING_NEW: 'PENDING_NEW',
  /** Accepted and working at the exchange. */
  OPEN: 'OPEN',
  /** A stop order waiting for its trigger. */
  TRIGGER_PENDING: 'TRIGGER_PENDING',
  PARTIALLY_FILLED: 'PARTIALLY_FILLED',
  FILLED: 'FILLED',
  CANCELLED: 'CANCELLED',
  REJECTED: 'REJECTED',
  EXPIRED: 'EXPIRED',
} as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/**
 * Whether new exposure may be taken: `active` trades, `reducing` only lets orders through that
 * shrink a position, `halted` lets none through (kill switch, operator halt). Owned by risk; in
 * core because the `trading-state` event carries it.
 */
export const TradingState = { ACTIVE: 'active', REDUCING: 'reducing', HALTED: 'halted' } as const;
export type TradingState = (typeof TradingState)[keyof typeof TradingState];

/** FILLED, CANCELLED, REJECTED or EXPIRED. Comparisons, not a Set: the order path asks this many times per order. */
export function isTerminalStatus(s: OrderStatus): boolean {
  return s === OrderStatus.FILLED || s === OrderStatus.CANCELLED || s === OrderStatus.REJECTED || s === OrderStatus.EXPIRED;
}

export function oppositeSide(s: Side): Side {
  return s === Side.BUY ? Side.SELL : Side.BUY;
}

/** +1 for BUY, -1 for SELL: signed quantities are `sign(side) * qty`. */
export function sideSign(s: Side): 1 | -1 {
  return s === Side.BUY ? 1 : -1;
}
