/**
 * Quantity freeze limits of F&O (NSE circulars, dated data in config/market-rules/
 * freeze-quantities.yaml): the largest quantity one order in a contract on an underlying may
 * carry. An order above it is rejected by the broker's RMS; brokers slice a larger order into at
 * most `maxSlices` orders of at most the freeze quantity.
 *
 * One rule, three users with the same words: the simulator's matching engine refuses a larger
 * order (the order FAILS with `freezeLimitMessage`), risk denies the intent first (FREEZE_QTY,
 * checks/freeze-quantity.ts) unless `execution.autoSlice` is on, and then execution slices it
 * (`sliceQuantities`, adapters/execution/auto-slice.ts); the backtest plays the same through the
 * same matching engine and the same engine.
 */
import { z } from 'zod';
import type { Instrument } from '../../core/instruments.js';
import { datedList, inForce } from './dated.js';
import { readRuleFile, type RuleFileHeader } from './rule-file.js';

const underlying = z.string().regex(/^[A-Z0-9&-]+$/, 'expected an underlying symbol in capitals, e.g. NIFTY');

export const FreezeFileBody = z.object({
  max_slices: z.number().int().min(1).max(100),
  revisions: datedList({
    source: z.string().min(10, 'say which circular this revision comes from'),
    limits: z.record(underlying, z.number().int().positive('a freeze quantity is a positive number of units')),
  }),
});

export interface FreezeRules extends RuleFileHeader {
  /** The most orders one intent is sliced into (brokers' cap: 10). */
  readonly maxSlices: number;
  readonly revisions: readonly { readonly from: string; readonly source: string; readonly limits: Readonly<Record<string, number>> }[];
}

/** config/market-rules/freeze-quantities.yaml, parsed and validated (cached). */
export function freezeRules(): FreezeRules {
  const f = readRuleFile('freeze-quantities', FreezeFileBody);
  return { lastChecked: f.lastChecked, source: f.source, maxSlices: f.max_slices, revisions: f.revisions };
}

/** Whether the instrument is an F&O contract (freeze limits apply to futures and options only). */
export function isFnoContract(i: Instrument): boolean {
  return i.kind === 'FUTIDX' || i.kind === 'FUTSTK' || i.kind === 'OPTIDX' || i.kind === 'OPTSTK';
}

/** The freeze quantity (units) of `i` on the IST trading day `date`; undefined: none known. */
export function freezeQuantity(i: Instrument, date: string, rules: FreezeRules = freezeRules()): number | undefined {
  if (!isFnoContract(i)) return undefined;
  return inForce(rules.revisions, date)?.limits[i.symbol];
}

/** The broker's refusal of an order above the freeze quantity. */
export function freezeLimitMessage(i: Instrument, qty: number, freeze: number): string {
  return `Order quantity ${qty} of ${i.tradingSymbol} exceeds the freeze limit of ${freeze} for ${i.symbol}; split it into orders of at most ${freeze}`;
}

/** The largest slice: the freeze quantity rounded down to whole lots (0 when a lot is above it). */
export function largestSlice(freeze: number, lotSize: number): number {
  return Math.floor(freeze / lotSize) * lotSize;
}

/**
 * `qty` split into slices of at most the freeze quantity, each a whole number of lots, as even as
 * whole lots allow (5400 at freeze 1800, lot 75: 1800, 1800, 1800); undefined when that takes
 * more than `maxSlices` orders or a lot is larger than the freeze quantity.
 */
export function sliceQuantities(qty: number, freeze: number, lotSize: number, maxSlices: number): number[] | undefined {
  const cap = largestSlice(freeze, lotSize);
  if (cap <= 0) return undefined;
  const n = Math.ceil(qty / cap);
  if (n > maxSlices) return undefined;
  const lots = qty / lotSize;
  const base = Math.floor(lots / n);
  const extra = lots - base * n;
  const out: number[] = [];
  for (let k = 0; k < n; k++) out.push((base + (k < extra ? 1 : 0)) * lotSize);
  return out;
}

/** Why an order cannot be sliced: more than `maxSlices` orders needed. */
export function tooManySlicesMessage(i: Instrument, qty: number, freeze: number, lotSize: number, maxSlices: number): string {
  const cap = largestSlice(freeze, lotSize);
  return `Order quantity ${qty} of ${i.tradingSymbol} exceeds the freeze limit of ${freeze} for ${i.symbol} and would need ${cap > 0 ? Math.ceil(qty / cap) : 'unbounded'} slices; at most ${maxSlices} are allowed`;
}
