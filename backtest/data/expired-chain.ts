/**
 * The data of an option strategy's backtest on one expired expiry (spec 4.5, 4.9): the expiry is
 * checked against the expired-expiries endpoint, its option contracts come from the
 * expired-contracts endpoint (the whole chain, one call), the underlying's candles from the regular
 * historical endpoint, and the candles of the contracts whose strikes the underlying came near
 * (within `strikes` strikes of its low..high over the period) from the expired-candles endpoint.
 *
 * The series come back options first and the underlying last: candles closing at the same time
 * replay in series order, so when the underlying's candle closes (and `withOptionData` builds the
 * chain from the closes seen so far) that minute's option closes are already in.
 */
import type { Clock } from '../../src/core/clock.js';
import type { Interval } from '../../src/core/candles.js';
import { ConfigError } from '../../src/core/errors.js';
import type { Instrument } from '../../src/core/instruments.js';
import type { Paise } from '../../src/core/money.js';
import { addDays } from '../../src/core/time.js';
import type { BrokerClient } from '../../src/adapters/broker/client.js';
import type { ExpiredContractRow } from '../../src/strategies/options/chain-from-candles.js';
import { MAX_EXPIRED_SYMBOLS } from '../../src/adapters/broker/client.js';
import { candleWindows, fromCatalog, toCatalog } from '../../src/adapters/broker/helpers/candles.js';
import { isCovered } from '../../src/adapters/catalog/manifest.js';
import type { WireCandle } from '../../src/adapters/broker/schemas/historical.js';
import type { CandleCatalog } from '../../src/adapters/catalog/index.js';
import { loadBrokerCandles, seriesFromWire } from './broker-source.js';
import type { CandleSeries } from './candle-series.js';
import type { SessionFilter } from './clean-series.js';
import { emptyDrops, emptyRepairs, type LoadSummary, type SeriesSummary } from './load-summary.js';

/** `NIFTY:2026-11-18` -> underlying and expiry. */
export function parseExpiredExpiry(text: string): { underlying: string; expiry: string } {
  const m = /^([A-Z][A-Z0-9&-]*):(\d{4}-\d{2}-\d{2})$/.exec(text.trim());
  if (!m) throw new ConfigError(`--expired-expiry: expected UNDERLYING:YYYY-MM-DD (e.g. NIFTY:2026-11-18), got ${JSON.stringify(text)}`, { flag: 'expired-expiry' });
  return { underlying: m[1]!, expiry: m[2]! };
}

export interface ExpiredChainRequest {
  readonly underlying: string;
  readonly expiry: string;
  /** Scrip code of the underlying (`NIDX_13`): its candles drive the strategy and pick the strikes. */
  readonly underlyingCode: string;
  readonly interval: Interval;
  readonly from: number;
  readonly to: number;
  /** Strikes beyond the underlying's range on each side whose contracts are loaded. */
  readonly strikes: number;
  readonly segment?: 'NFO' | 'BFO';
  /** Option tick, paise (NSE index options: 5). */
  readonly tickSize?: Paise;
  /** The catalog the underlying's and the contracts' candles are kept in and read back from. */
  readonly catalog?: CandleCatalog;
  readonly session?: SessionFilter;
  readonly onProgress?: (code: string, done: number, total: number) => void;
}

export interface ExpiredChain {
  readonly series: CandleSeries[];
  readonly instruments: Instrument[];
  /** The loaded contracts, as `withOptionData(..., { contracts })` takes them. */
  readonly contracts: ExpiredContractRow[];
  readonly sources: LoadSummary[];
}

export async function loadExpiredChain(client: BrokerClient, clock: Clock, r: ExpiredChainRequest): Promise<ExpiredChain> {
  const where = `--expired-expiry ${r.underlying}:${r.expiry}`;
  // The expiry must be one the broker lists (spec 4.5 rule 4); the weeks before it name neighbours.
  const listed = await client.expiredExpiries(r.underlying, addDays(r.expiry, -60), r.expiry);
  if (!listed.includes(r.expiry)) {
    throw new ConfigError(`${where}: not an expired expiry of ${r.underlying}${listed.length ? `; near it: ${listed.slice(0, 6).join(', ')}` : ''}`, { underlying: r.underlying, expiry: r.expiry });
  }
  // Without instrument_type: index and stock options alike; futures rows have no strike.
  const all = (await client.expiredContracts(r.underlying, r.expiry)).filter((c) => c.optionType !== undefined && c.strike !== undefined);
  if (all.length === 0) throw new ConfigError(`${where}: the broker lists no option contracts for it`, { underlying: r.underlying, expiry: r.expiry });

  const u = await loadBrokerCandles(client, clock, { codes: [r.underlyingCode], interval: r.interval, from: r.from, to: r.to, ...(r.catalog ? { catalog: r.catalog } : {}), ...(r.session ? { session: r.session } : {}) });
  const under = u.series[0];
  if (!under || under.length === 0) throw new ConfigError(`${where}: no candles of the underlying ${r.underlyingCode} between --from and --to`, { code: r.underlyingCode });
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < under.length; i++) {
    low = Math.min(low, under.low[i]!);
    high = Math.max(high, under.high[i]!);
  }
  const ladder = [...new Set(all.map((c) => c.strike!))].sort((a, b) => a - b);
  const nearest = (p: number): number => ladder.reduce((best, s, i) => (Math.abs(s - p) < Math.abs(ladder[best]! - p) ? i : best), 0);
  const lo = ladder[Math.max(0, nearest(low) - r.strikes)]!;
  const hi = ladder[Math.min(ladder.length - 1, nearest(high) + r.strikes)]!;
  const chosen = all.filter((c) => c.strike! >= lo && c.strike! <= hi).sort((a, b) => a.tradingSymbol.localeCompare(b.tradingSymbol));

  const o = await expiredCandles(client, chosen.map((c) => c.tradingSymbol), r, clock.now());
  const traded = new Set(o.series.filter((s) => s.length > 0).map((s) => s.instrument));
  const contracts = chosen.filter((c) => traded.has(c.tradingSymbol));
  if (contracts.length === 0) throw new ConfigError(`${where}: none of its contracts near the underlying traded between --from and --to`, {});
  const instruments: Instrument[] = contracts.map((c) => ({
    id: c.tradingSymbol,
    exchange: r.segment === 'BFO' ? 'BSE' : 'NSE',
    segment: 'FNO',
    securityId: c.tradingSymbol,
    kind: c.instrumentType === 'OPTSTK' ? 'OPTSTK' : 'OPTIDX',
    tradingSymbol: c.tradingSymbol,
    symbol: r.underlying,
    lotSize: c.lotSize,
    tickSize: r.tickSize ?? 5,
    expiry: c.expiry,
    strike: c.strike!,
    optionType: c.optionType!,
  }));
  return {
    series: [...o.series.filter((s) => traded.has(s.instrument)), under],
    instruments,
    contracts: contracts.map((c) => ({ trading_symbol: c.tradingSymbol, strike_price: c.strike! / 100, option_type: c.optionType!, lot_size: c.lotSize, expiry: c.expiry })),
    sources: [u.summary, o.summary],
  };
}

/**
 * Candles of many expired contracts, 50 trading symbols a call (spec 4.9) and one call per window
 * of the interval's maximum range, instead of one call per contract: a chain of 40 contracts over
 * a day is one request against the data budget, not 40. Cleaned like any broker series. With a
 * catalog, contracts whose whole range it already holds are read from it, and finished windows
 * downloaded go into it.
 */
async function expiredCandles(client: BrokerClient, symbols: readonly string[], r: ExpiredChainRequest, now: number): Promise<{ series: CandleSeries[]; summary: LoadSummary }> {
  const windows = candleWindows(r.interval, r.from, r.to);
  const bySymbol = new Map<string, Map<number, WireCandle>>(symbols.map((s) => [s, new Map()]));
  const cat = r.catalog;
  const kept = cat ? symbols.filter((s) => isCovered(cat.manifest(s, r.interval)?.covered ?? [], r.from, r.to)) : [];
  for (const sym of kept) for (const c of await fromCatalog(cat!, sym, r.interval, r.from, r.to)) bySymbol.get(sym)!.set(c.start, c);
  const fetch = symbols.filter((s) => !kept.includes(s));
  const batches: string[][] = [];
  for (let i = 0; i < fetch.length; i += MAX_EXPIRED_SYMBOLS) batches.push(fetch.slice(i, i + MAX_EXPIRED_SYMBOLS));
  let calls = 0;
  for (const batch of batches) {
    for (const [s, e] of windows) {
      const data = await client.historicalExpired(r.interval, batch, s, e, r.segment ?? 'NFO');
      calls++;
      for (const sym of batch) {
        const m = bySymbol.get(sym)!;
        for (const c of data[sym] ?? []) if (c.start >= r.from && c.start < r.to) m.set(c.start, c);
        if (cat && e <= now) await toCatalog(cat, sym, r.interval, [s, e], data[sym] ?? [], 'broker expired');
      }
      r.onProgress?.(batch[0]!, calls, batches.length * windows.length);
    }
  }
  const source = `broker expired ${r.interval} ${r.underlying} ${r.expiry} (${symbols.length} contracts)`;
  const series: CandleSeries[] = [];
  const summaries: SeriesSummary[] = [];
  const drops = emptyDrops();
  const repairs = emptyRepairs();
  const notes: string[] = [`${calls} calls for ${fetch.length} contracts` + (kept.length ? `, ${kept.length} read from the catalog` : '')];
  let rows = 0;
  for (const sym of symbols) {
    const candles = [...bySymbol.get(sym)!.values()].sort((a, b) => a.start - b.start);
    rows += candles.length;
    const w = seriesFromWire(sym, r.interval, candles, source, r.session);
    series.push(w.series);
    summaries.push(w.summary);
    for (const k of Object.keys(drops) as Array<keyof typeof drops>) drops[k] += w.drops[k];
    for (const k of Object.keys(repairs) as Array<keyof typeof repairs>) repairs[k] += w.repairs[k];
    notes.push(...w.notes);
  }
  return { series, summary: { source, rows, candles: series.reduce((a, x) => a + x.length, 0), instruments: summaries, dropped: drops, repaired: repairs, badRows: [], notes } };
}
