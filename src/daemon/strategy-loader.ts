/**
 * Turns the config's strategy entries into engine strategy specs: a registered name (`sma-cross`)
 * is looked up in the strategy registry; a path (`./my-strategy.ts`, `/abs/x.js`, `file:...`) is
 * imported, relative to the config file, and must export a StrategyDefinition as `definition` or
 * `default`. Instrument references in params (`NSE:RELIANCE`) are resolved to scrip codes.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, describeError } from '../core/errors.js';
import type { StrategySpec } from '../engine/engine-options.js';
import type { StrategyDefinition } from '../strategies/strategy.js';
import type { StrategyEntry } from './config.js';
import { resolveSymbolRefs, type SymbolIndex } from './symbols.js';

export type StrategyLookup = (name: string) => StrategyDefinition | undefined;

function isPath(s: string): boolean {
  return s.startsWith('./') || s.startsWith('../') || s.startsWith('file:') || isAbsolute(s);
}

function isDefinition(v: unknown): v is StrategyDefinition {
  return typeof v === 'object' && v !== null && typeof (v as { create?: unknown }).create === 'function' && typeof (v as { name?: unknown }).name === 'string';
}

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
    if (isPath(e.strategy)) {
      const url = e.strategy.startsWith('file:') ? e.strategy : pathToFileURL(resolve(o.baseDir, e.strategy)).href;
      let mod: Record<string, unknown>;
      try {
        mod = (await import(url)) as Record<string, unknown>;
      } catch (err) {
        throw new ConfigError(`${where}.strategy: cannot load ${e.strategy}: ${describeError(err)}`, { strategy: e.strategy });
      }
      const d = mod['definition'] ?? mod['default'];
      if (!isDefinition(d)) throw new ConfigError(`${where}.strategy: ${e.strategy} exports no strategy definition (export const definition = defineStrategy(...))`);
      definition = d;
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
