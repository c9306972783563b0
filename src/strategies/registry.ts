/**
 * Strategies by name, for the CLI and the daemon's YAML (`strategy: sma-cross`). A strategy folder
 * exports a `StrategyDefinition`; add it here to make it available by name.
 */
import { ConfigError } from '../core/errors.js';
import { smaCross } from './sma-cross/index.js';
import { orbSmart } from './orb-smart/index.js';
import { shortStraddle } from './short-straddle/index.js';
import type { StrategyDefinition } from './strategy.js';

const registry = new Map<string, StrategyDefinition>([[smaCross.name, smaCross as unknown as StrategyDefinition]]);
registry.set(orbSmart.name, orbSmart as unknown as StrategyDefinition);
registry.set(shortStraddle.name, shortStraddle as unknown as StrategyDefinition);

/** Registers a strategy definition (a later registration of the same name replaces it). */
export function registerStrategy(def: StrategyDefinition): void {
  registry.set(def.name, def);
}

export function getStrategy(name: string): StrategyDefinition {
  const d = registry.get(name);
  if (!d) throw new ConfigError(`unknown strategy ${JSON.stringify(name)}; known: ${[...registry.keys()].sort().join(', ')}`, { name });
  return d;
}

export function strategyNames(): string[] {
  return [...registry.keys()].sort();
}
