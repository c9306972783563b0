/**
 * Turns the config's strategy entries into engine strategy specs: a registered name (`sma-cross`)
 * is looked up in the strategy registry; a path (`./my-strategy.ts`, `/abs/x.js`, `file:...`) is
 * imported relative to the config file by the shared strategy-file loader (which resolves
 * `tarang/strategy` imports and TypeScript) and must export a StrategyDefinition as `definition`
 * or `default`. Instrument references in params (`NSE:RELIANCE`) are resolved to scrip codes.
 */
import { ConfigError, describeError } from '../core/errors.js';
import type { StrategySpec } from '../engine/engine-options.js';
import type { StrategyDefinition } from '../strategies/strategy.js';
import { isStrategyPath, loadStrategyFile, strategyFileUrl } from '../strategies/strategy-file.js';
import type { StrategyEntry } from './config.js';
import { resolveSymbolRefs, type SymbolIndex } from './symbols.js';

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
    if (ids.has(e.id)) throw new ConfigError(`${where}.id: duplicate strategy id ${JSON.stringify(e.id)}`);
    ids.add(e.id);
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
    const params = resolveSymbolRefs(e.params, o.symbols, `${where}.params`);
    specs.push({ id: e.id, definition, params });
  }
  if (specs.length === 0) throw new ConfigError(`${o.source}: strategies: every strategy is disabled`);
  return specs;
}
