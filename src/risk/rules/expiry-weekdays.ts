/**
 * Expiry weekdays of derivatives, dated (config/market-rules/expiry-weekdays.yaml): weekly and
 * monthly expiry days per index and for stock derivatives, each in force for contracts expiring on
 * or after its date (NSE Thursday until August 2025 and Tuesday since, BSE the other way round,
 * the 2023-2025 changes of single indices before that). The simulator's expiry calendar is built
 * from these; nothing hard-codes a weekday.
 */
import { z } from 'zod';
import { datedList } from './dated.js';
import type { Era } from './lot-sizes.js';
import { readRuleFile, type RuleFileHeader } from './rule-file.js';

/** Expiry weekdays (1 = Monday ... 5 = Friday) in force for expiries on or after an era's `from`. */
export interface ExpiryRule {
  /** Weekday of weekly expiries; null when the underlying has no weeklies in that era. */
  readonly weekly: number | null;
  /** Weekday of the monthly expiry (the last such weekday of the month); null: no derivatives. */
  readonly monthly: number | null;
}

const WEEKDAYS = { MON: 1, TUE: 2, WED: 3, THU: 4, FRI: 5 } as const;
const weekday = z.enum(['MON', 'TUE', 'WED', 'THU', 'FRI', 'none'], { message: 'expected MON, TUE, WED, THU, FRI or none' });
const entry = { weekly: weekday, monthly: weekday, source: z.string().min(10, 'say which circular this comes from') };

export const ExpiryFileBody = z.object({
  indices: z.record(z.string().regex(/^[A-Z0-9&-]+$/, 'expected an underlying symbol in capitals, e.g. NIFTY'), datedList(entry)),
  stocks: datedList(entry),
});

interface Loaded {
  readonly indices: ReadonlyMap<string, readonly Era<ExpiryRule>[]>;
  readonly stocks: readonly Era<ExpiryRule>[];
}
let loaded: Loaded | undefined;

export function expiryWeekdayRules(): RuleFileHeader & z.output<typeof ExpiryFileBody> {
  return readRuleFile('expiry-weekdays', ExpiryFileBody);
}

function day(d: keyof typeof WEEKDAYS | 'none'): number | null {
  return d === 'none' ? null : WEEKDAYS[d];
}

function load(): Loaded {
  if (loaded) return loaded;
  const f = expiryWeekdayRules();
  const conv = (list: readonly { from: string; weekly: keyof typeof WEEKDAYS | 'none'; monthly: keyof typeof WEEKDAYS | 'none' }[]): Era<ExpiryRule>[] =>
    list.map((e) => ({ from: e.from, value: { weekly: day(e.weekly), monthly: day(e.monthly) } }));
  loaded = { indices: new Map(Object.entries(f.indices).map(([s, l]) => [s, conv(l)])), stocks: conv(f.stocks) };
  return loaded;
}

/** Expiry eras of an index's derivatives (one shared array per index); undefined: not listed. */
export function indexExpiryEras(symbol: string): readonly Era<ExpiryRule>[] | undefined {
  return load().indices.get(symbol);
}

/** Expiry eras of stock futures and options (one shared array). */
export function stockExpiryEras(): readonly Era<ExpiryRule>[] {
  return load().stocks;
}
