/**
 * The F&O execution range (NSE; dated data in config/market-rules/price-bands.yaml): a futures or
 * options trade takes place only within a range around the contract's reference price, a
 * percentage for futures, an absolute range for cheap options and a percentage above. tarang takes
 * the last traded price as the reference.
 *
 * One rule, three users with the same words: the simulator's matching engine fails a LIMIT order
 * priced outside (`priceBandRefusal` in matching/validation.ts), risk denies it first (PRICE_BAND,
 * checks/price-band.ts), and the backtest plays the same through the same matching engine. Equity
 * circuit limits are the quotes' own bands (checks/circuit.ts).
 */
import { z } from 'zod';
import type { Instrument } from '../../core/instruments.js';
import { formatRupees, type Paise } from '../../core/money.js';
import { datedList, inForce } from './dated.js';
import { readRuleFile, type RuleFileHeader } from './rule-file.js';

const pct = z.number().positive().max(100);
const rupees = z.number().positive();

export const PriceBandFileBody = z.object({
  revisions: datedList({
    source: z.string().min(10, 'say which circular this revision comes from'),
    futures_pct: pct,
    options: z.object({ absolute_up_to: rupees, absolute: rupees, pct_above: pct }).strict(),
  }),
});

export type PriceBandRules = RuleFileHeader & z.output<typeof PriceBandFileBody>;

export function priceBandRules(): PriceBandRules {
  return readRuleFile('price-bands', PriceBandFileBody);
}

export interface PriceRange {
  readonly lower: Paise;
  readonly upper: Paise;
}

/** The execution range of an F&O contract around `reference` on the IST day `date`; undefined: none applies. */
export function executionRange(i: Instrument, reference: Paise, date: string, rules: PriceBandRules = priceBandRules()): PriceRange | undefined {
  if (!(reference > 0)) return undefined;
  const isFuture = i.kind === 'FUTIDX' || i.kind === 'FUTSTK';
  const isOption = i.kind === 'OPTIDX' || i.kind === 'OPTSTK';
  if (!isFuture && !isOption) return undefined;
  const r = inForce(rules.revisions, date);
  if (!r) return undefined;
  let width: number;
  if (isFuture) width = (reference * r.futures_pct) / 100;
  else if (reference <= r.options.absolute_up_to * 100) width = r.options.absolute * 100;
  else width = (reference * r.options.pct_above) / 100;
  // On the tick grid, never narrower than the rule: the bounds round outwards.
  const tick = i.tickSize > 0 ? i.tickSize : 1;
  const lower = Math.max(tick, Math.floor((reference - width) / tick) * tick);
  const upper = Math.ceil((reference + width) / tick) * tick;
  return { lower, upper };
}

/** The refusal of an F&O order priced outside its execution range. */
export function priceBandMessage(i: Instrument, price: Paise, range: PriceRange, reference: Paise): string {
  return `Price ${formatRupees(price)} of ${i.tradingSymbol} is outside the execution range ${formatRupees(range.lower)} - ${formatRupees(range.upper)} around the reference price ${formatRupees(reference)}`;
}

/** Why a LIMIT price is refused against `reference` on `date`; undefined when it is inside (or no range applies). */
export function priceBandRefusal(i: Instrument, price: Paise, reference: Paise | undefined, date: string): string | undefined {
  if (reference === undefined) return undefined;
  const range = executionRange(i, reference, date);
  if (!range || (price >= range.lower && price <= range.upper)) return undefined;
  return priceBandMessage(i, price, range, reference);
}
