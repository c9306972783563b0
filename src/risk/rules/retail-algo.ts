/**
 * SEBI's retail-algo framework as the broker applies it to API orders (config/market-rules/
 * retail-algo.yaml, dated): at most `ordersPerSecond` new orders a second per exchange segment
 * (NSE equity, NSE F&O, BSE equity, ...), and every order carries an algo id of its exchange (the
 * generic id below the threshold, a registered one above it).
 *
 * One module, three users with the same words: the simulator refuses an order over the threshold
 * (HTTP 429) or with a foreign algo id (HTTP 400); the broker client queues a burst per exchange
 * segment so the broker never has to refuse it (rate-limiter.ts) and fills in the exchange's algo
 * id; configuration refuses a threshold above the generic one without a registered algo id.
 *
 * What counts: placements (regular and smart orders). Modifications and cancellations stay under
 * the broker's own order-API budget (spec 8, 10 a second for the account), which is enforced
 * separately and is never looser than this.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../../core/errors.js';
import { configPath } from '../../core/paths.js';
import { formatZodIssues } from '../../core/zod-issues.js';

export const ALGO_EXCHANGES = ['NSE', 'BSE'] as const;
export type AlgoExchange = (typeof ALGO_EXCHANGES)[number];

const fileSchema = z
  .object({
    last_checked: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD'),
    source: z.string().min(1),
    orders_per_second_per_segment: z.number().int().positive(),
    generic_algo_ids: z.object({ NSE: z.string().regex(/^\d+$/), BSE: z.string().regex(/^\d+$/) }).strict(),
    market_protection_pct: z.number().positive().max(100),
  })
  .strict();

export interface RetailAlgoRules {
  readonly lastChecked: string;
  readonly source: string;
  /** New orders a second per exchange segment an unregistered API user may send. */
  readonly ordersPerSecond: number;
  readonly genericAlgoIds: Readonly<Record<AlgoExchange, string>>;
  /** Percentage around the last price at which a MARKET order is limited (see market-protection.ts). */
  readonly marketProtectionPct: number;
}

/** Parses a document in the format of config/market-rules/retail-algo.yaml. */
export function parseRetailAlgoRules(text: string, source = 'retail-algo rules'): RetailAlgoRules {
  const parsed = fileSchema.safeParse(parse(text));
  if (!parsed.success) throw new ConfigError(`${source}: ${formatZodIssues(parsed.error, { limit: 1 })}`, { source });
  const d = parsed.data;
  return Object.freeze({
    lastChecked: d.last_checked,
    source: d.source.trim(),
    ordersPerSecond: d.orders_per_second_per_segment,
    genericAlgoIds: Object.freeze({ ...d.generic_algo_ids }),
    marketProtectionPct: d.market_protection_pct,
  });
}

let cached: RetailAlgoRules | undefined;

/** The rules of config/market-rules/retail-algo.yaml (read once per process). */
export function retailAlgoRules(): RetailAlgoRules {
  if (!cached) {
    const file = configPath('market-rules', 'retail-algo.yaml');
    cached = parseRetailAlgoRules(readFileSync(file, 'utf8'), file);
  }
  return cached;
}

/** Algo ids an account registered with the exchanges (an algo above the threshold). */
export type RegisteredAlgoIds = Partial<Readonly<Record<AlgoExchange, string>>>;

/** The algo id an order on `exchange` carries: the registered one, else the exchange's generic id. */
export function algoIdFor(exchange: AlgoExchange, registered: RegisteredAlgoIds = {}, rules = retailAlgoRules()): string {
  return registered[exchange] ?? rules.genericAlgoIds[exchange];
}

/** undefined when `algoId` is valid on `exchange`, else the broker's refusal. */
export function algoIdRefusal(exchange: AlgoExchange, algoId: string, registered: RegisteredAlgoIds = {}, rules = retailAlgoRules()): string | undefined {
  const generic = rules.genericAlgoIds[exchange];
  if (algoId === generic || algoId === registered[exchange]) return undefined;
  return `algo_id ${algoId} is not an algo id of ${exchange}: send ${generic} (the generic id of ${exchange}) or an algo id registered with ${exchange}`;
}

/** The exchange segment an order counts against: `NSE EQUITY`, `NSE FNO`, `BSE FNO`, ... */
export function exchangeSegment(exchange: string, segment: string): string {
  // The order endpoints name derivatives FNO or DERIVATIVE; one segment either way.
  return `${exchange} ${segment === 'DERIVATIVE' ? 'FNO' : segment}`;
}

/** The broker's refusal of a new order over the threshold, and the words risk and logs use. */
export function orderRateRefusal(segment: string, perSecond: number): string {
  return `order rate above ${perSecond} orders a second on ${segment}: the retail-algo threshold of the exchange (queue orders, or register the algo with the exchange to go faster)`;
}

/** undefined when a threshold is allowed with these algo ids, else what is wrong (configuration). */
export function thresholdRefusal(perSecond: number, registered: RegisteredAlgoIds, rules = retailAlgoRules()): string | undefined {
  if (perSecond <= rules.ordersPerSecond) return undefined;
  const missing = ALGO_EXCHANGES.filter((x) => registered[x] === undefined || registered[x] === rules.genericAlgoIds[x]);
  if (missing.length === 0) return undefined;
  return `${perSecond} orders a second is above the retail-algo threshold of ${rules.ordersPerSecond}: only a registered algo may go faster, and no registered algo id is set for ${missing.join(', ')}`;
}

/**
 * Counts new orders per exchange segment in a rolling second (a ring of the last `perSecond`
 * admission times per segment): `admit` answers whether one more may go now and records it.
 * Pure bookkeeping on the caller's timestamps, so the simulator (its clock) and the backtest (the
 * virtual clock) count the same way.
 */
export class SegmentOrderWindow {
  private readonly rings = new Map<string, { ring: Float64Array; head: number }>();

  constructor(
    readonly perSecond: number,
    readonly windowMs = 1000,
  ) {
    if (!Number.isInteger(perSecond) || perSecond < 1) throw new RangeError(`orders a second per segment must be a positive integer, got ${perSecond}`);
  }

  /** The earliest time at or after `now` when one more order may go on `segment`. */
  nextSlot(segment: string, now: number): number {
    const r = this.rings.get(segment);
    if (!r) return now;
    return Math.max(now, r.ring[r.head]! + this.windowMs);
  }

  /** Records an order on `segment` at `now` when under the threshold; false when over it. */
  admit(segment: string, now: number): boolean {
    let r = this.rings.get(segment);
    if (!r) this.rings.set(segment, (r = { ring: new Float64Array(this.perSecond).fill(-Infinity), head: 0 }));
    if (r.ring[r.head]! > now - this.windowMs) return false;
    r.ring[r.head] = now;
    r.head = r.head + 1 === r.ring.length ? 0 : r.head + 1;
    return true;
  }
}
