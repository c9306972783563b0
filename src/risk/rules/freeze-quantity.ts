/**
 * Quantity freeze limits of F&O: the largest quantity one order in a contract on an underlying may
 * carry. An order above it is rejected by the broker's RMS; brokers slice a larger order into at
 * most `maxSlices` orders of at most the freeze quantity. Two dated sources:
 * - index derivatives, per exchange (NSE and BSE circulars): config/market-rules/freeze-quantities.yaml;
 * - NSE stock futures and options: NSE's qtyfreeze files the user imported (stock-freeze.ts).
 * A contract is looked up by its exchange and underlying (`symbol`: NIFTY, SENSEX, RELIANCE), in
 * the index tables for index contracts, in the stock table for stock contracts.
 *
 * One rule, three users with the same words: the simulator's matching engine refuses a larger
 * order (the order FAILS with `freezeLimitMessage`), risk denies the intent first (FREEZE_QTY,
 * checks/freeze-quantity.ts) unless `execution.autoSlice` is on, and then execution slices it
 * (`sliceQuantities`, adapters/execution/auto-slice.ts); the backtest plays the same through the
 * same matching engine and the same engine.
 */
import { z } from 'zod';
import type { Exchange } from '../../core/enums.js';
import type { Instrument } from '../../core/instruments.js';
import { datedList, inForce } from './dated.js';
import { readRuleFile, type RuleFileHeader } from './rule-file.js';
import { stockFreezeRevisions, type StockFreezeRevisions } from './stock-freeze.js';

const underlying = z.string().regex(/^[A-Z0-9&-]+$/, 'expected an underlying symbol in capitals, e.g. NIFTY');

const revisions = datedList({
  source: z.string().min(10, 'say which circular or page this revision comes from'),
  limits: z.record(underlying, z.number().int().positive('a freeze quantity is a positive number of units')),
});

export const FreezeFileBody = z.object({
  max_slices: z.number().int().min(1).max(100),
  exchanges: z.object({ NSE: revisions, BSE: revisions }).strict(),
});

export interface FreezeRevision {
  readonly from: string;
  readonly source: string;
  readonly limits: Readonly<Record<string, number>>;
}

export interface FreezeRules extends RuleFileHeader {
  /** The most orders one intent is sliced into (brokers' cap: 10). */
  readonly maxSlices: number;
  /** Index derivatives' revisions per exchange, oldest first. */
  readonly indices: Readonly<Record<Exchange, readonly FreezeRevision[]>>;
  /** NSE stock F&O: the imported qtyfreeze revisions. */
  readonly stocks: StockFreezeRevisions;
}

let cached: FreezeRules | undefined;

/** config/market-rules/freeze-quantities.yaml (parsed and validated once) with the process's stock revisions. */
export function freezeRules(): FreezeRules {
  const stocks = stockFreezeRevisions();
  if (cached?.stocks === stocks) return cached;
  const f = readRuleFile('freeze-quantities', FreezeFileBody);
  cached = { lastChecked: f.lastChecked, source: f.source, maxSlices: f.max_slices, indices: f.exchanges, stocks };
  return cached;
}

/** Whether the instrument is a stock future or option (its freeze limit comes from NSE's qtyfreeze). */
export function isStockContract(i: Instrument): boolean {
  return i.kind === 'FUTSTK' || i.kind === 'OPTSTK';
}

/** Whether the instrument is an F&O contract (freeze limits apply to futures and options only). */
export function isFnoContract(i: Instrument): boolean {
  return i.kind === 'FUTIDX' || i.kind === 'FUTSTK' || i.kind === 'OPTIDX' || i.kind === 'OPTSTK';
}

/**
 * The freeze quantity (units) of `i` on the IST trading day `date`; undefined: none known (an
 * underlying no revision lists, a day before its exchange's first revision, a stock without an
 * imported qtyfreeze file in force; BSE stock contracts).
 */
export function freezeQuantity(i: Instrument, date: string, rules: FreezeRules = freezeRules()): number | undefined {
  if (!isFnoContract(i)) return undefined;
  if (isStockContract(i)) return i.exchange === 'NSE' ? rules.stocks.limit(i.symbol, date) : undefined;
  return inForce(rules.indices[i.exchange], date)?.limits[i.symbol];
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
