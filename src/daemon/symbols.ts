/**
 * Instrument references in strategy params: `EXCHANGE:SYMBOL` (e.g. `NSE:RELIANCE`, `NFO:NIFTY26NOVFUT`)
 * is resolved to its scrip code (`NSE_2885`) through the instrument master, so config files stay
 * readable and survive a broker renumbering. Scrip codes (`NSE_2885`, `NSE:2885`) pass unchanged.
 * Anything else that merely contains a colon (a time like `15:20`) is left alone.
 */
import { ConfigError } from '../core/errors.js';
import type { Instrument } from '../core/instruments.js';

const SYMBOL_REF = /^(NSE|BSE|NFO|BFO|NIDX|BIDX):([A-Z][A-Z0-9&_.-]*)$/;

export interface SymbolIndex {
  /** By `NSE`, `NFO`, `NIDX`... and the trading symbol. */
  bySymbolName(prefix: string, tradingSymbol: string): Instrument | undefined;
}

/** A resolver over a list of instruments (derivatives and indices are keyed by prefix too). */
export function symbolIndex(instruments: Iterable<Instrument>): SymbolIndex {
  const map = new Map<string, Instrument>();
  for (const i of instruments) {
    map.set(`${i.exchange}:${i.tradingSymbol}`, i);
    const prefix = i.id.slice(0, i.id.indexOf('_'));
    map.set(`${prefix}:${i.tradingSymbol}`, i);
    if (i.kind === 'INDEX') map.set(`${prefix}:${i.symbol}`, i);
  }
  return { bySymbolName: (prefix, symbol) => map.get(`${prefix}:${symbol}`) };
}

/** Returns `params` with every `EXCHANGE:SYMBOL` string replaced by its scrip code. */
export function resolveSymbolRefs(params: unknown, index: SymbolIndex, where: string): unknown {
  if (typeof params === 'string') {
    const m = SYMBOL_REF.exec(params);
    if (!m) return params;
    const found = index.bySymbolName(m[1]!, m[2]!);
    if (!found) throw new ConfigError(`${where}: no instrument ${params} in the instrument master`, { where, ref: params });
    return found.id;
  }
  if (Array.isArray(params)) return params.map((v, i) => resolveSymbolRefs(v, index, `${where}.${i}`));
  if (params !== null && typeof params === 'object') {
    return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, resolveSymbolRefs(v, index, `${where}.${k}`)]));
  }
  return params;
}
