/**
 * `tarang backtest --strategies FILE.yaml`: several strategies trading one account, listed as in
 * the daemon's config (`strategies:` entries with id, strategy, params, enabled; any other key of a
 * paper or live config is ignored, so the same file backtests as it runs). Each entry is one
 * instance, or one per instrument: `instrument: ALL`, no instrument when the data holds several,
 * or a `universe:` list (ids `<id>:<symbol>`). Instrument references name the data's instruments:
 * `NSE:RELIANCE` or `RELIANCE` for the series RELIANCE. Errors name the file, line and key.
 */
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { configLineOf, parseConfigText } from '../../core/config.js';
import { ConfigError, describeError } from '../../core/errors.js';
import { formatZodIssues } from '../../core/zod-issues.js';
import { readFileSync } from 'node:fs';
import { StrategyEntrySchema } from '../../daemon/config.js';
import { expandUniverse } from '../../daemon/universe.js';
import { resolveStrategy } from '../../strategies/strategy-file.js';
import { schemaShape } from '../../strategies/space.js';
import type { StrategyDefinition } from '../../strategies/strategy.js';

export interface BacktestInstance {
  readonly id: string;
  readonly definition: StrategyDefinition;
  readonly params: Readonly<Record<string, unknown>>;
}

const StrategiesFileSchema = z.object({ strategies: z.array(StrategyEntrySchema).min(1, 'list at least one strategy') });

/** `NSE:RELIANCE` or `RELIANCE` to the data's series id, or undefined when the data has no such instrument. */
function dataInstrument(ref: string, ids: ReadonlySet<string>): string | undefined {
  if (ids.has(ref)) return ref;
  const colon = ref.indexOf(':');
  const symbol = colon > 0 ? ref.slice(colon + 1) : ref;
  return ids.has(symbol) ? symbol : undefined;
}

export async function loadBacktestStrategies(file: string, seriesIds: readonly string[], interval: string): Promise<BacktestInstance[]> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`--strategies ${file}: cannot read: ${(e as Error).message}`, { file });
  }
  const doc = parseConfigText(text, file, StrategiesFileSchema);
  const at = (path: readonly string[]): string => {
    const line = configLineOf(file, path);
    return `${file}${line ? `:${line}` : ''}: ${path.join('.')}`;
  };
  const ids = new Set(seriesIds);
  const out: BacktestInstance[] = [];
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const [i, raw] of doc.strategies.entries()) {
    if (!raw.enabled) continue;
    const base = ['strategies', String(i)];
    let definition: StrategyDefinition;
    try {
      ({ definition } = await resolveStrategy(raw.strategy, dirname(resolve(file))));
    } catch (e) {
      problems.push(`${at([...base, 'strategy'])}: ${describeError(e)}`);
      continue;
    }
    const keys = new Set(Object.keys(schemaShape(definition.params) ?? {}));
    let entries: Array<{ id: string; params: Record<string, unknown> }>;
    try {
      entries = expandUniverse(raw, { baseDir: dirname(resolve(file)), where: (path) => at([...base, ...path]) }).map((e) => ({ id: e.id, params: { ...e.params } }));
    } catch (e) {
      problems.push(describeError(e));
      continue;
    }
    // One instrument strategy without an instrument over several series: one instance each.
    if (entries.length === 1 && keys.has('instrument') && (entries[0]!.params['instrument'] === 'ALL' || (entries[0]!.params['instrument'] === undefined && seriesIds.length > 1))) {
      entries = seriesIds.map((s) => ({ id: `${raw.id}:${s}`, params: { ...entries[0]!.params, instrument: s } }));
    }
    for (const e of entries) {
      const p = e.params;
      if (keys.has('instrument')) {
        if (p['instrument'] === undefined) p['instrument'] = seriesIds[0];
        const found = typeof p['instrument'] === 'string' ? dataInstrument(p['instrument'], ids) : undefined;
        if (found === undefined) {
          problems.push(`${at([...base, 'params', 'instrument'])}: ${JSON.stringify(p['instrument'])} is not in the data (instruments: ${seriesIds.slice(0, 8).join(', ')}${seriesIds.length > 8 ? ', ...' : ''})`);
          continue;
        }
        p['instrument'] = found;
      }
      if (keys.has('instruments') && p['instruments'] === undefined) p['instruments'] = seriesIds;
      if (keys.has('interval') && p['interval'] === undefined) p['interval'] = interval;
      const parsed = definition.params.safeParse(p);
      if (!parsed.success) {
        problems.push(`${at([...base, 'params'])}: ${e.id} (${definition.name}): ${formatZodIssues(parsed.error, { root: '(params)' })}`);
        continue;
      }
      if (seen.has(e.id)) {
        problems.push(`${at([...base, 'id'])}: duplicate strategy id ${JSON.stringify(e.id)}`);
        continue;
      }
      seen.add(e.id);
      out.push({ id: e.id, definition, params: p });
    }
  }
  if (problems.length) throw new ConfigError(problems.join('\n'), { file, problems });
  if (out.length === 0) throw new ConfigError(`${file}: strategies: every strategy is disabled`, { file });
  return out;
}
