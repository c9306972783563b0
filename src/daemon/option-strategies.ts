/**
 * Builds the configured strategies ahead of the engine so the daemon can see which ones trade
 * options: a strategy declaring `optionChains` is wrapped with `withOptionData` over its own
 * `OptionDataFeed` (the same mechanism the backtester uses with candles), and its needs are handed
 * to the `OptionChainService`, which publishes live chains on that feed. Other strategies pass
 * through built, unchanged. Parameters are validated exactly as the engine would (same function,
 * same messages).
 */
import type { StrategySpec } from '../engine/engine-options.js';
import type { InstrumentLookup } from '../core/instruments.js';
import { parseStrategyParams } from '../strategies/params.js';
import { OptionDataFeed, withOptionData } from '../strategies/options/option-data-feed.js';
import { isOptionStrategy } from '../strategies/options/option-data.js';
import type { Strategy } from '../strategies/strategy.js';
import type { ChainSubscription } from './option-chains.js';

export interface PreparedStrategies {
  readonly specs: StrategySpec[];
  readonly chains: ChainSubscription[];
}

export function prepareStrategies(specs: readonly StrategySpec[], instruments: InstrumentLookup): PreparedStrategies {
  const out: StrategySpec[] = [];
  const chains: ChainSubscription[] = [];
  for (const spec of specs) {
    const strategy: Strategy =
      'strategy' in spec ? spec.strategy : spec.definition.create(parseStrategyParams(spec.definition, spec.params, spec.id) as never, { id: spec.id, instruments });
    if (isOptionStrategy(strategy) && strategy.optionChains.length > 0) {
      const feed = new OptionDataFeed();
      for (const need of strategy.optionChains) chains.push({ strategyId: spec.id, need, feed });
      out.push({ id: spec.id, strategy: withOptionData(strategy, feed) });
    } else out.push({ id: spec.id, strategy });
  }
  return { specs: out, chains };
}

/** Whether any strategy needs option data: the daemon then loads the F&O instrument master too. */
export function needsDerivatives(p: PreparedStrategies): boolean {
  return p.chains.length > 0;
}
