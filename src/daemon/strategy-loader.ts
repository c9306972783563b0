/**
 * Turns the config's strategy entries into engine strategy specs: a registered name (`sma-cross`)
 * is looked up in the strategy registry; a path (`./my-strategy.ts`, `/abs/x.js`, `file:...`) is
 * imported relative to the config file by the shared strategy-file loader (which resolves
 * `tarang/strategy` imports and TypeScript) and must export a StrategyDefinition as `definition`
 * or `default`. An entry with a `universe:` is one instance per instrument (universe.ts).
 * Instrument references in params (`NSE:RELIANCE`) are resolved to scrip codes.
 */
import { valueAt } from '../core/config.js';
import { ConfigError, describeError } from '../core/errors.js';
import type { StrategySpec } from '../engine/engine-options.js';
import type { StrategyDefinition } from '../strategies/strategy.js';
import { isStrategyPath, loadStrategyFile, strategyFileUrl } from '../strategies/strategy-file.js';
import type { StrategyEntry } from './config.js';
import { resolveSymbolRefs, type SymbolIndex } from './symbols.js';
import { expandUniverse } from './universe.js';

export type StrategyLookup = (name: string) => StrategyDefinition | undefined;

export async function loadStrategySpecs(
  entries: readonly StrategyEntry[],
  o: { readonly lookup: StrategyLookup; readonly symbols: SymbolIndex; readonly baseDir: string; readonly source: string; readonly known?: () => readonly string[] },
): Promise<StrategySpec[]> {
  const ids = new Set<string>();
  const specs: StrategySpec[] = [];
  for (const [i, e] of entries.entries()) {
    const where = `${o.source}: strategies.${i}`;
    if (!e.enabled) continue;
    const instances = expandUniverse(e, { baseDir: o.baseDir, where: (path) => `${where}.${path.join('.')}` });
    for (const inst of instances) {
      if (ids.has(inst.id)) throw new ConfigError(`${where}.id: duplicate strategy id ${JSON.stringify(inst.id)}`);
      ids.add(inst.id);
    }
    let definition: StrategyDefinition | undefined;
    if (isStrategyPath(e.strategy)) {
      try {
        definition = await loadStrategyFile(strategyFileUrl(e.strategy, o.baseDir), e.strategy);
      } catch (err) {
        throw new ConfigError(`${where}.strategy: ${describeError(err)}`, { strategy: e.strategy });
      }
    } else {
      definition = o.lookup(e.strategy);
      if (!definition) {
        const known = o.known?.() ?? [];
        throw new ConfigError(`${where}.strategy: unknown strategy ${JSON.stringify(e.strategy)}${known.length ? `; known: ${known.join(', ')}` : ''}`);
      }
    }
    for (const inst of instances) {
      const params = resolveSymbolRefs(inst.params, o.symbols, `${where}.params`);
      specs.push({ id: inst.id, definition, params });
    }
  }
  if (specs.length === 0) throw new ConfigError(`${o.source}: strategies: every strategy is disabled`);
  return specs;
}

/**
 * Checks every strategy entry before the daemon logs in or opens a store: the strategy exists
 * (registered name or loadable file) and its params pass its schema. All problems are reported at
 * once, each naming the file, line and key, beside nothing else: a wrong `fast: "x"` should not
 * cost a TOTP code and a minute of start-up to find. Instrument references (`NSE:RELIANCE`) are
 * strings to the schema here; they are resolved against the instrument master later.
 */
export async function checkStrategyEntries(
  entries: readonly StrategyEntry[],
  o: { readonly lookup: StrategyLookup; readonly baseDir: string; readonly source: string; readonly known?: () => readonly string[]; readonly lineOf?: (path: readonly string[]) => number | undefined },
): Promise<void> {
  const problems: string[] = [];
  const ids = new Set<string>();
  const at = (path: readonly string[]): string => {
    const line = o.lineOf?.(path);
    return `${o.source}${line ? `:${line}` : ''}: ${path.join('.')}`;
  };
  for (const [i, e] of entries.entries()) {
    if (!e.enabled) continue;
    const base = ['strategies', String(i)];
    let definition: StrategyDefinition | undefined;
    if (isStrategyPath(e.strategy)) {
      try {
        definition = await loadStrategyFile(strategyFileUrl(e.strategy, o.baseDir), e.strategy);
      } catch (err) {
        problems.push(`${at([...base, 'strategy'])}: ${describeError(err)}`);
        continue;
      }
    } else {
      definition = o.lookup(e.strategy);
      if (!definition) {
        const known = o.known?.() ?? [];
        problems.push(`${at([...base, 'strategy'])}: unknown strategy ${JSON.stringify(e.strategy)}${known.length ? `; known: ${known.join(', ')}` : ''}`);
        continue;
      }
    }
    let instances: ReturnType<typeof expandUniverse>;
    try {
      instances = expandUniverse(e, { baseDir: o.baseDir, where: (path) => at([...base, ...path]) });
    } catch (err) {
      problems.push(describeError(err));
      continue;
    }
    // Every instance of a universe differs by its instrument only: the first one's problems stand for all.
    const inst = instances[0]!;
    const r = definition.params.safeParse(inst.params);
    if (!r.success) {
      for (const issue of r.error.issues) {
        const path = [...base, 'params', ...issue.path.map(String)];
        const missing = issue.code === 'invalid_type' && valueAt(inst.params, issue.path.map(String)) === undefined;
        problems.push(`${at(path)}: ${missing ? `is required (${definition.name} expects ${issue.expected})` : issue.message}${issue.path.length === 0 ? ` (strategy ${inst.id}, ${definition.name})` : ''}`);
      }
    }
    for (const i of instances) {
      if (ids.has(i.id)) problems.push(`${at([...base, 'id'])}: duplicate strategy id ${JSON.stringify(i.id)}`);
      ids.add(i.id);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'), { source: o.source, problems });
}
