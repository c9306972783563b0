/**
 * The axes of a sweep from the command line and the strategy's declared space (src/strategies/
 * space.ts): `--sweep fast=5..30:5` gives its own range, `--sweep fast` takes the declared range of
 * `fast`, and `--sweep` alone (an empty spec) takes every declared parameter not fixed by --param.
 * Kept apart from the sweep's runner: it only decides the grid.
 */
import { ConfigError } from '../../src/core/errors.js';
import { checkSpace } from '../../src/strategies/space.js';
import type { StrategyDefinition } from '../../src/strategies/strategy.js';
import { parseSweep, type SweepAxis } from './sweep-grid.js';

/** The declared space as sweep axes, in the order declared (none when the strategy declares none). */
export function declaredAxes(def: StrategyDefinition): SweepAxis[] {
  return def.space ? checkSpace(def.name, def.params, def.space as Readonly<Record<string, unknown>>) : [];
}

/**
 * `specs` are the --sweep values as given ('' for a bare `--sweep`); `fixed` the parameters given
 * with --param (left out of "every declared parameter").
 */
export function resolveSweepAxes(specs: readonly string[], def: StrategyDefinition, fixed: ReadonlySet<string> = new Set()): SweepAxis[] {
  const declared = declaredAxes(def);
  const names = declared.map((a) => a.name);
  const noneDeclared = (): ConfigError =>
    new ConfigError(`--sweep: strategy ${def.name} declares no parameter space; give ranges, e.g. --sweep fast=5..30:5 (or declare space: { ... } in its definition)`, { strategy: def.name });
  const axes: SweepAxis[] = [];
  for (const spec of specs) {
    const text = spec.trim();
    if (text === '') {
      if (declared.length === 0) throw noneDeclared();
      axes.push(...declared.filter((a) => !fixed.has(a.name) && !axes.some((b) => b.name === a.name)));
    } else if (!text.includes('=')) {
      const axis = declared.find((a) => a.name === text);
      if (!axis) {
        if (declared.length === 0) throw noneDeclared();
        throw new ConfigError(`--sweep ${text}: strategy ${def.name} declares no range for ${text} (declared: ${names.join(', ')}); give one, e.g. --sweep ${text}=1..10:1`, { strategy: def.name, name: text });
      }
      axes.push(axis);
    } else axes.push(parseSweep(text));
  }
  if (axes.length === 0) throw new ConfigError(`--sweep: every declared parameter of ${def.name} (${names.join(', ')}) is fixed by --param; nothing left to sweep`, { strategy: def.name });
  return axes;
}
