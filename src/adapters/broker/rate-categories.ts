/**
 * Rate-limit categories of spec 8 and which endpoint falls in which. One limiter per category is
 * shared by every caller in the process (see rate-limiter.ts).
 */
export const RateCategory = {
  ORDERS: 'orders',
  DATA: 'data',
  QUOTES: 'quotes',
  NON_TRADING: 'nonTrading',
  TOKEN: 'token',
} as const;
export type RateCategory = (typeof RateCategory)[keyof typeof RateCategory];

export interface CategoryLimit {
  /** Calls per rolling window of `windowMs`. */
  readonly perWindow: number;
  readonly windowMs: number;
  /** Calls per IST calendar day; undefined = no daily cap. */
  readonly perDay?: number;
}

/** Spec 8 as data. Token generation: 1 per minute (the 60-s throttle). */
export const DEFAULT_LIMITS: Readonly<Record<RateCategory, CategoryLimit>> = {
  orders: { perWindow: 10, windowMs: 1000 },
  data: { perWindow: 5, windowMs: 1000, perDay: 100_000 },
  quotes: { perWindow: 5, windowMs: 1000, perDay: 100_000 },
  nonTrading: { perWindow: 15, windowMs: 1000, perDay: 100_000 },
  token: { perWindow: 1, windowMs: 60_000 },
};

/** The category of a request, by method and path (path without query). */
export function categoryOf(method: string, path: string): RateCategory {
  if (path === '/generate/token') return RateCategory.TOKEN;
  if (path.startsWith('/market/quotes')) return RateCategory.QUOTES;
  if (path.startsWith('/market/') || path.startsWith('/option-chain') || path === '/greeks') return RateCategory.DATA;
  if (method === 'POST' && (path.startsWith('/order') || path.startsWith('/smart/order'))) return RateCategory.ORDERS;
  return RateCategory.NON_TRADING;
}
