/**
 * Lot sizes of index derivatives, dated by contract expiry (config/market-rules/lot-sizes.yaml):
 * exchanges revise lots from a named first expiry and listed contracts keep theirs, so a contract
 * has the lot of the entry in force on its expiry date, expired ones included.
 *
 * Users: the simulator's universe (current and expired contracts in its instrument master), the
 * backtest (F&O series named by trading symbol get their lot from here when the file has none) and,
 * through the instruments they build, risk's lot-multiple check (checks/lot-size.ts).
 */
import { z } from 'zod';
import { datedList, inForce } from './dated.js';
import { readRuleFile, type RuleFileHeader } from './rule-file.js';

/** A value in force for contracts expiring on or after `from` (`YYYY-MM-DD`). */
export interface Era<T> {
  readonly from: string;
  readonly value: T;
}

const underlying = z.string().regex(/^[A-Z0-9&-]+$/, 'expected an underlying symbol in capitals, e.g. NIFTY');

export const LotFileBody = z.object({
  indices: z.record(
    underlying,
    datedList({ lot: z.number().int().positive('a lot is a positive number of units'), source: z.string().min(10, 'say which circular this lot comes from'), note: z.string().optional() }),
  ),
});

let eras: ReadonlyMap<string, readonly Era<number>[]> | undefined;

/** The file, validated (errors name the file and the key). */
export function lotSizeRules(): RuleFileHeader & z.output<typeof LotFileBody> {
  return readRuleFile('lot-sizes', LotFileBody);
}

/** Lot eras of an index's derivatives, oldest first (one array per underlying, shared). */
export function indexLotEras(symbol: string): readonly Era<number>[] | undefined {
  if (!eras) {
    const m = new Map<string, readonly Era<number>[]>();
    for (const [sym, list] of Object.entries(lotSizeRules().indices)) m.set(sym, list.map((e) => ({ from: e.from, value: e.lot })));
    eras = m;
  }
  return eras.get(symbol);
}

/** The lot of an index derivative expiring on `expiry` (`YYYY-MM-DD`); undefined for another underlying. */
export function indexLotSize(symbol: string, expiry: string): number | undefined {
  const list = indexLotEras(symbol);
  return list ? (inForce(list, expiry)?.value ?? list[0]!.value) : undefined;
}
