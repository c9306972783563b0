/**
 * A strategy entry's `universe:` (config.ts): one instance of the strategy per instrument, as
 * `--param instrument=ALL` does in a backtest. The list is written in the entry or kept in a file
 * (one instrument a line, `#` starts a comment, relative to the config file). Instance `i` gets
 * `params.instrument = universe[i]` and the id `<id>:<symbol>` (`sma:RELIANCE` for `NSE:RELIANCE`),
 * so its orders, state and results are its own. An entry without a universe is one instance, as
 * before. Errors name the file, line and key through `where`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { StrategyEntry } from './config.js';

export interface UniverseInstance {
  readonly id: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface UniverseOptions {
  /** Folder a universe file is relative to (the config file's). */
  readonly baseDir: string;
  /** `file:line: strategies.N.<path>` for an error at `path` inside the entry. */
  readonly where: (path: readonly string[]) => string;
}

const REF = /^[A-Za-z0-9][A-Za-z0-9_.&:-]*$/;

/** Instruments of a universe file: one a line, blank lines and `#` comments skipped; with the line of each. */
function readUniverseFile(file: string, where: string): Array<{ ref: string; line: number }> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`${where}: cannot read the universe file ${file}: ${(e as Error).message}`, { file });
  }
  const out: Array<{ ref: string; line: number }> = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const ref = raw.replace(/#.*/, '').trim();
    if (ref !== '') out.push({ ref, line: i + 1 });
  });
  return out;
}

/** The symbol part of an instrument reference: `NSE:RELIANCE` -> `RELIANCE`; a scrip code stays as it is. */
export function universeSymbol(ref: string): string {
  const colon = ref.lastIndexOf(':');
  return colon >= 0 ? ref.slice(colon + 1) : ref;
}

export function expandUniverse(entry: StrategyEntry, o: UniverseOptions): UniverseInstance[] {
  if (entry.universe === undefined) return [{ id: entry.id, params: entry.params }];
  const fromFile = typeof entry.universe === 'string';
  if (entry.params['instrument'] !== undefined) {
    throw new ConfigError(`${o.where(['params', 'instrument'])}: give instrument or universe, not both (the universe sets each instance's instrument)`, { id: entry.id });
  }
  const file = fromFile ? resolve(o.baseDir, entry.universe as string) : undefined;
  const items = file ? readUniverseFile(file, o.where(['universe'])) : (entry.universe as string[]).map((ref, i) => ({ ref, line: i }));
  const at = (item: { line: number }): string => (file ? `${file}:${item.line}` : o.where(['universe', String(item.line)]));
  if (items.length === 0) throw new ConfigError(`${o.where(['universe'])}: the universe file ${file} lists no instrument`, { id: entry.id });
  const seen = new Map<string, string>();
  return items.map((item) => {
    if (!REF.test(item.ref)) throw new ConfigError(`${at(item)}: ${JSON.stringify(item.ref)} is not an instrument; write EXCHANGE:SYMBOL (NSE:RELIANCE) or a scrip code (NSE_2885)`, { id: entry.id });
    const symbol = universeSymbol(item.ref);
    const before = seen.get(symbol);
    if (before !== undefined) throw new ConfigError(`${at(item)}: ${item.ref} is in the universe twice (also ${before})`, { id: entry.id });
    seen.set(symbol, item.ref);
    return { id: `${entry.id}:${symbol}`, params: { ...entry.params, instrument: item.ref } };
  });
}
