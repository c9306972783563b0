/** Validates a strategy's parameters with its zod schema; the error names the parameter and the strategy. */
import { ConfigError } from '../core/errors.js';
import type { StrategyDefinition } from './strategy.js';
import type { z } from 'zod';
import { issuePath, type IssueFormat } from '../core/zod-issues.js';

export class StrategyParamsError extends ConfigError {}

export function parseStrategyParams<D extends StrategyDefinition>(def: D, raw: unknown, instanceId = def.name): unknown {
  const r = def.params.safeParse(raw ?? {});
  if (r.success) return r.data;
  const issues = paramIssueLines(r.error, raw, { prefix: 'parameter ', root: '(params)' });
  throw new StrategyParamsError(`strategy ${instanceId} (${def.name}): ${issues.join('; ')}`, { strategy: def.name, instanceId, issues });
}

/**
 * The parameters a strategy requires (no default) that `raw` leaves out: zod words these as
 * "expected number, received undefined", which reads as a bad value the user never gave.
 */
export function missingParams(error: z.ZodError, raw: unknown): string[] {
  const given = (raw ?? {}) as Record<string, unknown>;
  const keys = error.issues.filter((i) => i.path.length === 1 && given[String(i.path[0])] === undefined).map((i) => String(i.path[0]));
  return [...new Set(keys)];
}

/** Each issue as `path: message`, a left-out required parameter as `name: required (no default)`. */
export function paramIssueLines(error: z.ZodError, raw: unknown, format: IssueFormat = {}): string[] {
  const missing = new Set(missingParams(error, raw));
  return error.issues.slice(0, format.limit).map((i) => {
    const path = issuePath(i, format.root);
    return `${format.prefix ?? ''}${path}: ${i.path.length === 1 && missing.has(path) ? 'required (no default)' : i.message}`;
  });
}
