/** Validates a strategy's parameters with its zod schema; the error names the parameter and the strategy. */
import { ConfigError } from '../core/errors.js';
import type { StrategyDefinition } from './strategy.js';
import { zodIssueLines } from '../core/zod-issues.js';

export class StrategyParamsError extends ConfigError {}

export function parseStrategyParams<D extends StrategyDefinition>(def: D, raw: unknown, instanceId = def.name): unknown {
  const r = def.params.safeParse(raw ?? {});
  if (r.success) return r.data;
  const issues = zodIssueLines(r.error, { prefix: 'parameter ', root: '(params)' });
  throw new StrategyParamsError(`strategy ${instanceId} (${def.name}): ${issues.join('; ')}`, { strategy: def.name, instanceId, issues });
}
