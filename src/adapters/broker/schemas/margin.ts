/** Margin for an order (spec 4.8; wire-gaps "Portfolio, margin"). Amounts are rupee numbers. */
import { z } from 'zod';
import type { Product, Side } from '../../../core/enums.js';
import { toRupees, type Paise } from '../../../core/money.js';
import { bool, num, optNum } from './common.js';

export interface MarginRequest {
  readonly segment: 'EQUITY' | 'DERIVATIVE';
  readonly exchange: 'NSE' | 'BSE';
  readonly securityId: string;
  readonly side: Side;
  readonly qty: number;
  readonly price: Paise;
  readonly product: Product;
}

export function marginBody(m: MarginRequest): Record<string, unknown> {
  return { segment: m.segment, exchange: m.exchange, securityID: m.securityId, txnType: m.side, quantity: m.qty, price: toRupees(m.price), product: m.product };
}

export const MarginSchema = z
  .object({
    total_margin: num,
    span_margin: optNum,
    exposure_margin: optNum,
    available_balance: optNum,
    insufficient_balance: z.union([optNum, bool]).optional(),
    brokerage: optNum,
    charges: z.record(z.string(), optNum).optional(),
  })
  .transform((m) => ({
    totalMargin: m.total_margin,
    spanMargin: m.span_margin,
    exposureMargin: m.exposure_margin,
    availableBalance: m.available_balance,
    insufficientBalance: typeof m.insufficient_balance === 'number' ? m.insufficient_balance : undefined,
    brokerage: m.brokerage,
    charges: Object.fromEntries(Object.entries(m.charges ?? {}).filter(([, v]) => v !== undefined)) as Record<string, number>,
  }));
export type Margin = z.output<typeof MarginSchema>;
