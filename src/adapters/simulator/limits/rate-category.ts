/** The rate-limit categories of spec 8 and their default budgets. */
export const RateCategory = {
  ORDERS: 'orders',
  DATA: 'data',
  QUOTES: 'quotes',
  NON_TRADING: 'non_trading',
} as const;
export type RateCategory = (typeof RateCategory)[keyof typeof RateCategory];

export interface CategoryLimit {
  /** Calls allowed in any rolling second. */
  readonly perSecond: number;
  /** Calls allowed per IST calendar day; omit for none (spec 8 states none for orders). */
  readonly perDay?: number;
}

export type RateLimitTable = Readonly<Record<RateCategory, CategoryLimit>>;

export const DEFAULT_RATE_LIMITS: RateLimitTable = Object.freeze({
  orders: { perSecond: 10 },
  data: { perSecond: 5, perDay: 100_000 },
  quotes: { perSecond: 5, perDay: 100_000 },
  non_trading: { perSecond: 15, perDay: 100_000 },
});
