/**
 * A strategy's declared parameter space (as freqtrade's hyperopt spaces): the values a sweep or a
 * walk-forward tries for each parameter when the command line gives no range.
 *
 *   space: { fast: { from: 5, to: 30, step: 5 }, slow: { from: 20, to: 100, step: 20 }, product: ['CNC', 'INTRADAY'] }
 *
 * A range is inclusive with a positive step (default 1); a list is tried in the order written. The
 * space is checked when the strategy is defined: every name must be a parameter of the schema and
 * every value must pass that parameter's own schema, so a typo fails at import with the strategy
 * and the parameter named, not as a sweep of invalid rows. Combinations that break a rule across
 * parameters (e.g. `fast < slow`) are left to the sweep, which reports them as invalid rows.
 */
import type { z } from 'zod';
import { ConfigError } from '../core/errors.js';

/** An inclusive numeric range: from, from + step, ... up to `to`. */
export interface SpaceRange {
  readonly from: number;
  readonly to: number;
  /** Positive; 1 when omitted. */
  readonly step?: number;
}

export type SpaceValue = number | string | boolean;

/** How one parameter is searched: a range (numbers) or the values to try. */
export type SpaceSpec<T> = [NonNullable<T>] extends [number] ? SpaceRange | readonly NonNullable<T>[] : readonly Extract<NonNullable<T>, SpaceValue>[];

/** The declared space of a strategy whose parsed parameters are `P`: any subset of them. */
export type ParamSpace<P> = unknown extends P
  ? Readonly<Record<string, SpaceRange | readonly SpaceValue[] | undefined>>
  : P extends object
    ? { readonly [K in keyof P]?: SpaceSpec<P[K]> }
    : never;

/** At most this many values per parameter (a range with a tiny step is a mistake, not a search). */
const MAX_VALUES = 10_000;

export class StrategySpaceError extends ConfigError {}

function decimals(n: number): number {
  const s = String(n);
  return s.includes('e') ? 0 : (s.split('.')[1] ?? '').length;
}

/** The values of one parameter's space, in order. */
export function spaceValues(name: string, spec: SpaceRange | readonly SpaceValue[], where = 'space'): SpaceValue[] {
  if (Array.isArray(spec)) {
    const list = spec as readonly SpaceValue[];
    if (list.length === 0) throw new StrategySpaceError(`${where}.${name}: the list of values is empty`, { name });
    return [...list];
  }
  const r = spec as SpaceRange;
  const step = r.step ?? 1;
  if (![r.from, r.to, step].every(Number.isFinite)) throw new StrategySpaceError(`${where}.${name}: from, to and step must be numbers`, { name });
  if (!(step > 0)) throw new StrategySpaceError(`${where}.${name}: the step must be positive, got ${step}`, { name });
  if (r.to < r.from) throw new StrategySpaceError(`${where}.${name}: to (${r.to}) is below from (${r.from})`, { name });
  // On an integer grid: { from: 0.1, to: 0.5, step: 0.1 } gives exactly 0.1 .. 0.5, no float drift.
  const scale = 10 ** Math.max(decimals(r.from), decimals(r.to), decimals(step));
  const a = Math.round(r.from * scale);
  const b = Math.round(r.to * scale);
  const s = Math.round(step * scale);
  const count = Math.floor((b - a) / s) + 1;
  if (count > MAX_VALUES) throw new StrategySpaceError(`${where}.${name}: ${count} values; at most ${MAX_VALUES}`, { name });
  const out: number[] = [];
  for (let k = a; k <= b; k += s) out.push(k / scale);
  return out;
}

/** The object schema's fields, through the wrappers a params schema may have (refine keeps the shape in zod 4; a pipe does not). */
export function schemaShape(schema: z.ZodType): Readonly<Record<string, z.ZodType>> | undefined {
  let s: unknown = schema;
  for (let depth = 0; depth < 4 && s && typeof s === 'object'; depth++) {
    const o = s as { shape?: Record<string, z.ZodType>; def?: { in?: unknown; innerType?: unknown } };
    if (o.shape && typeof o.shape === 'object') return o.shape;
    s = o.def?.in ?? o.def?.innerType;
  }
  return undefined;
}

/**
 * Checks a declared space against the parameter schema; returns each parameter's values in the
 * order declared. Throws naming the strategy, the parameter and the bad value.
 */
export function checkSpace(strategy: string, schema: z.ZodType, space: Readonly<Record<string, unknown>>): Array<{ name: string; values: SpaceValue[] }> {
  const shape = schemaShape(schema);
  const where = `strategy ${strategy}: space`;
  if (!shape) throw new StrategySpaceError(`${where}: the params schema is not a z.object, so its parameters cannot be named`, { strategy });
  const out: Array<{ name: string; values: SpaceValue[] }> = [];
  for (const [name, spec] of Object.entries(space)) {
    if (spec === undefined) continue;
    const field = shape[name];
    if (!field) throw new StrategySpaceError(`${where}.${name}: not a parameter (parameters: ${Object.keys(shape).join(', ')})`, { strategy, name });
    if (spec === null || typeof spec !== 'object') throw new StrategySpaceError(`${where}.${name}: expected { from, to, step } or a list of values`, { strategy, name });
    const values = spaceValues(name, spec as SpaceRange | readonly SpaceValue[], where);
    for (const v of values) {
      if (!['number', 'string', 'boolean'].includes(typeof v)) throw new StrategySpaceError(`${where}.${name}: ${JSON.stringify(v)} is not a number, text or true/false`, { strategy, name });
      const r = field.safeParse(v);
      if (!r.success) throw new StrategySpaceError(`${where}.${name}: ${JSON.stringify(v)} is not a valid ${name} (${r.error.issues[0]?.message ?? 'rejected by the schema'})`, { strategy, name, value: v });
    }
    out.push({ name, values });
  }
  return out;
}
