/** Validates a strategy's parameters with its zod schema; the error names the parameter and the strategy. */
import { ConfigError } from '../core/errors.js';
import type { StrategyDefinition } from './strategy.js';

export class StrategyParamsError extends ConfigError {}

export function parseStrategyParams<D extends StrategyDefinition>(def: D, raw: unknown, instanceId = def.name): unknown {
  const r = def.params.safeParse(raw ?? {});
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `parameter ${i.path.length ? i.path.join('.') : '(params)'}: ${i.message}`);
  throw new StrategyParamsError(`strategy ${instanceId} (${def.name}): ${issues.join('; ')}`, { strategy: def.name, instanceId, issues });
}
