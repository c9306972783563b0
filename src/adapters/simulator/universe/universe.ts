/**
 * The simulated instrument universe: indices, NSE and BSE equities, and every current and expired
 * derivative contract of the last `historyYears`, all derived deterministically from a seed and the
 * simulator's trading date. Current contracts are materialised (they are in the instrument master);
 * expired ones are generated per (underlying, expiry) on demand, since five years of weekly index
 * chains are millions of rows. The chains themselves are chains.ts's, the instrument records
 * instrument-rows.ts's.
 */
import { ConfigError, InvariantError } from '../../../core/errors.js';
import type { Instrument } from '../../../core/instruments.js';
import { InstrumentTable } from '../../../core/instruments.js';
import type { Paise } from '../../../core/money.js';
import { roundToTick } from '../../../core/money.js';
import { addDays, istMidnight } from '../../../core/time.js';
import type { ExpiryDate } from './expiry-calendar.js';
import { expirySeries } from './expiry-calendar.js';
import { generateEquityNames } from './equity-names.js';
import { renderMasterCsv } from './master-csv.js';
import type { PathSpec } from './price-paths.js';
import { PATH_START, PricePaths } from './price-paths.js';
import type { Era, ExpiryRule } from './reference-data.js';
import {
  FNO_STOCKS,
  INDEX_TICK,
  INDICES,
  KNOWN_EQUITIES,
  STOCK_HALF_WIDTH,
} from './reference-data.js';
import { indexLotEras } from '../../../risk/rules/lot-sizes.js';
import { indexExpiryEras, stockExpiryEras } from '../../../risk/rules/expiry-weekdays.js';
import { Rng, hash32, hashUnit } from './rng.js';
import { expiryOfSymbol } from './trading-symbol.js';
import { buildChain, hasFuture, isQuarterMonth, LISTED_MONTHLIES, listingDays, type UnderlyingEntry } from './chains.js';
import { contractInstrument, equityInstrument } from './instrument-rows.js';
import type { Contract, MasterSource, TradingCalendar, Underlying, UniverseOptions } from './types.js';

const DEFAULT_NSE_EQUITIES = 2400;
const DEFAULT_BSE_EQUITIES = 1000;
const DEFAULT_HISTORY_YEARS = 5;
/** Weeklies listed at once (the nearest; serial monthlies: `LISTED_MONTHLIES`). */
const LISTED_WEEKLIES = 4;
/** Security ids of contracts: eight digits, hashed from the trading symbol (see materialiseCurrentContracts). */
const ID_BASE = 10_000_000;
const ID_SPAN = 90_000_000;
const NICE_STEPS = [0.5, 1, 2.5, 5, 10, 20, 50, 100, 250, 500, 1000];
const CHAIN_CACHE_LIMIT = 400;

/** Universes kept by `Universe.shared` per calendar (about 60 MB each with its master CSVs: a few at once). */
const SHARED_LIMIT = 3;
const SHARED = new WeakMap<TradingCalendar, Map<string, Universe>>();

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

export class Universe {
  readonly seed: number;
  readonly today: string;
  readonly calendar: TradingCalendar;
  /** First expiry date kept in the expired history. */
  readonly historyStart: string;
  /** Every current instrument (indices, equities, unexpired contracts) by scrip code. */
  readonly table = new InstrumentTable();
  readonly paths: PricePaths;

  private readonly all: Instrument[] = [];
  private readonly entries = new Map<string, UnderlyingEntry>();
  private readonly entryByScrip = new Map<string, UnderlyingEntry>();
  private readonly pathByScrip = new Map<string, { key: string; spec: PathSpec }>();
  private readonly currentChains = new Map<string, readonly Contract[]>();
  private readonly contractByScrip = new Map<string, Contract>();
  private readonly currentBySymbol = new Map<string, Contract>();
  private readonly expiredCache = new Map<string, readonly Contract[]>();
  private readonly csvCache = new Map<MasterSource, string>();
  private readonly seriesCache = new Map<readonly Era<ExpiryRule>[], ExpiryDate[]>();

  private constructor(options: UniverseOptions) {
    this.seed = options.seed;
    this.today = options.today;
    this.calendar = options.calendar;
    this.paths = new PricePaths(options.seed);
    const years = options.historyYears ?? DEFAULT_HISTORY_YEARS;
    this.historyStart = addDays(`${Number(options.today.slice(0, 4)) - years}${options.today.slice(4)}`, 0);
    if (this.historyStart < PATH_START) throw new ConfigError(`Universe: history before ${PATH_START} is not simulated (today ${options.today}, historyYears ${years})`, { today: options.today, historyYears: years });
    this.buildIndices();
    const stocks = this.buildEquities(options.nseEquities ?? DEFAULT_NSE_EQUITIES, options.bseEquities ?? DEFAULT_BSE_EQUITIES);
    this.buildDerivativeUnderlyings(stocks);
    this.materialiseCurrentContracts();
  }

  /** Builds the universe. Throws ConfigError on invalid options (bad date, negative counts), naming the option. */
  static build(options: UniverseOptions): Universe {
    if (!Number.isSafeInteger(options.seed)) throw new ConfigError(`Universe: seed must be an integer, got ${options.seed}`, { seed: options.seed });
    const badToday = (): never => {
      throw new ConfigError(`Universe: today must be a date as YYYY-MM-DD, got ${JSON.stringify(options.today)}`, { today: options.today });
    };
    if (!DATE_RE.test(options.today)) badToday();
    try {
      istMidnight(options.today);
    } catch {
      badToday();
    }
    for (const k of ['nseEquities', 'bseEquities', 'historyYears'] as const) {
      const v = options[k];
      if (v !== undefined && (!Number.isSafeInteger(v) || v < 0)) throw new ConfigError(`Universe: ${k} must be a non-negative integer, got ${v}`, { [k]: v });
    }
    return new Universe(options);
  }

  /**
   * The universe for these options, built once per process and shared: a universe is immutable
   * (its caches are deterministic), and simulators started again and again with the same seed and
   * trading date (tests, benches, a paper session's restarts) should not pay ~1 s each time.
   * Bounded: the least recently used of more than `SHARED_LIMIT` universes is dropped.
   */
  static shared(options: UniverseOptions): Universe {
    let byCalendar = SHARED.get(options.calendar);
    if (!byCalendar) SHARED.set(options.calendar, (byCalendar = new Map()));
    const key = [options.seed, options.today, options.nseEquities ?? '', options.bseEquities ?? '', options.historyYears ?? ''].join('|');
    let u = byCalendar.get(key);
    if (u) byCalendar.delete(key);
    else u = Universe.build(options);
    byCalendar.set(key, u);
    if (byCalendar.size > SHARED_LIMIT) {
      const oldest = byCalendar.keys().next().value;
      if (oldest !== undefined) byCalendar.delete(oldest);
    }
    return u;
  }

  /**
   * Drops `u` from the shared universes (holders keep theirs): a simulator rolling to a new trading
   * date calls it for the old date, so a session running for days holds one universe (~60 MB with
   * its CSVs), not the last `SHARED_LIMIT` dates.
   */
  static release(u: Universe): void {
    const byCalendar = SHARED.get(u.calendar);
    if (!byCalendar) return;
    for (const [key, v] of byCalendar) if (v === u) byCalendar.delete(key);
  }

  /** Instrument by scrip code (`NSE_2885`, `NFO_43512087`, `NIDX_13`). */
  get(scripCode: string): Instrument | undefined {
    return this.table.get(scripCode);
  }

  /** All current instruments: indices, equities, unexpired contracts. */
  instruments(): readonly Instrument[] {
    return this.all;
  }

  /** Every derivative underlying (indices first, then stocks). */
  underlyings(): readonly Underlying[] {
    return [...this.entries.values()].map((e) => e.info);
  }

  /** The underlying named by its base symbol (case-sensitive, as the exchange spells it). */
  underlying(symbol: string): Underlying | undefined {
    return this.entries.get(symbol)?.info;
  }

  /** The underlying whose index or cash-equity instrument has this scrip code (`NIDX_13`, `NSE_2885`). */
  underlyingOf(scripCode: string): Underlying | undefined {
    return this.entryByScrip.get(scripCode)?.info;
  }

  /** Upcoming expiries (>= today) of an underlying, ascending. */
  currentExpiries(symbol: string): readonly string[] {
    return this.entries.get(symbol)?.current.map((e) => e.date) ?? [];
  }

  /** Expiries before today, within the history window, ascending. */
  expiredExpiries(symbol: string): readonly string[] {
    return this.entries.get(symbol)?.expired.map((e) => e.date) ?? [];
  }

  /** The full chain of one expiry (futures first, then options by strike, CE before PE); [] when none. */
  contracts(symbol: string, expiry: string): readonly Contract[] {
    const current = this.currentChains.get(`${symbol}|${expiry}`);
    if (current) return current;
    const entry = this.entries.get(symbol);
    const exp = entry?.expired.find((e) => e.date === expiry);
    if (!entry || !exp) return [];
    const key = `${symbol}|${expiry}`;
    const hit = this.expiredCache.get(key);
    if (hit) return hit;
    const chain = buildChain(this.paths, this.today, entry, exp, exp.kind === 'M');
    this.expiredCache.set(key, chain);
    if (this.expiredCache.size > CHAIN_CACHE_LIMIT) {
      const oldest = this.expiredCache.keys().next().value;
      if (oldest !== undefined) this.expiredCache.delete(oldest);
    }
    return chain;
  }

  /** A current or expired contract by its trading symbol. */
  contractBySymbol(tradingSymbol: string): Contract | undefined {
    const current = this.currentBySymbol.get(tradingSymbol);
    if (current) return current;
    // The symbol starts with its underlying's and names its expiry: build only that chain.
    const candidates = [...this.entries.keys()].filter((s) => tradingSymbol.startsWith(s)).sort((a, b) => b.length - a.length);
    for (const sym of candidates) {
      const entry = this.entries.get(sym)!;
      const when = expiryOfSymbol(tradingSymbol.slice(sym.length));
      if (!when) continue;
      for (const exp of entry.expired) {
        if (when.kind !== exp.kind || !exp.date.startsWith(when.prefix)) continue;
        const found = this.contracts(sym, exp.date).find((c) => c.tradingSymbol === tradingSymbol);
        if (found) return found;
      }
    }
    return undefined;
  }

  /** The contract behind a current fno instrument's scrip code. */
  contractOf(scripCode: string): Contract | undefined {
    return this.contractByScrip.get(scripCode);
  }

  /** The scrip code of a current contract (`NFO_43512087`); undefined for expired ones. */
  scripCodeOf(c: Contract): string | undefined {
    return c.securityId === undefined ? undefined : `${c.exchange === 'BSE' ? 'BFO' : 'NFO'}_${c.securityId}`;
  }

  /** The simulated closing price of an underlying on a date (any calendar date), paise, on its tick. */
  underlyingClose(symbol: string, date: string): Paise {
    const e = this.entries.get(symbol);
    if (!e) throw new RangeError(`unknown underlying ${symbol}`);
    return roundToTick(this.paths.close(e.pathKey, e.path, date) * 100, e.info.instrument.tickSize);
  }

  /** Price-path identity of a cash equity or index (by scrip code), shared by its NSE and BSE rows. */
  pathOf(scripCode: string): { readonly key: string; readonly spec: PathSpec } | undefined {
    return this.pathByScrip.get(scripCode);
  }

  /** Listing date of a contract: its first trading day. */
  listingDate(c: Contract): string {
    const e = this.entries.get(c.underlying);
    if (!e) throw new RangeError(`unknown underlying ${c.underlying}`);
    return addDays(c.expiry, -listingDays(e, c.expiry, c.expiryKind));
  }

  /** The instrument master CSV of spec 2.3 (header line included, `\n` line ends). */
  masterCsv(source: MasterSource): string {
    let csv = this.csvCache.get(source);
    if (csv === undefined) {
      csv = renderMasterCsv(source, this.all, (code) => this.contractByScrip.get(code), (sym) => this.currentExpiries(sym));
      this.csvCache.set(source, csv);
    }
    return csv;
  }

  // ---- construction -------------------------------------------------------------------------

  private add(i: Instrument, path?: { key: string; spec: PathSpec }, unique = false): void {
    // Contract ids are sequential, hence unique by construction; check the hand-assigned ones.
    if (!unique && this.table.get(i.id)) throw new InvariantError(`duplicate scrip code ${i.id}`, { id: i.id });
    this.table.add(i);
    this.all.push(i);
    if (path) this.pathByScrip.set(i.id, path);
  }

  private buildIndices(): void {
    for (const spec of INDICES) {
      const segment = 'INDEX' as const;
      const id = `${spec.exchange === 'NSE' ? 'NIDX' : 'BIDX'}_${spec.securityId}`;
      this.add(
        {
          id,
          exchange: spec.exchange,
          segment,
          securityId: spec.securityId,
          kind: 'INDEX',
          tradingSymbol: spec.symbol,
          symbol: spec.symbol,
          lotSize: 1,
          tickSize: Math.round(INDEX_TICK * 100),
        },
        { key: spec.symbol, spec: { price: spec.price, annualVol: spec.annualVol } },
      );
    }
  }

  /** Returns the NSE instruments of the F&O stocks, keyed by symbol. */
  private buildEquities(nseCount: number, bseCount: number): Map<string, { instrument: Instrument; spec: PathSpec; step: number; lot: number }> {
    const known = new Map(KNOWN_EQUITIES.map(([sym, nse, bse, name]) => [sym, { nse, bse, name }]));
    const takenNse = new Set(KNOWN_EQUITIES.map(([, nse]) => Number(nse)));
    const takenBse = new Set(KNOWN_EQUITIES.map(([, , bse]) => Number(bse)));
    const nseIds = idSequence(this.seed, 'nse-ids', 1001, 22, takenNse);
    const bseIds = idSequence(this.seed, 'bse-ids', 500002, 11, takenBse);
    const fnoSymbols = new Set(FNO_STOCKS.map(([s]) => s));
    const fnoMeta = new Map<string, { spec: PathSpec; step: number; lot: number }>();
    const fno = new Map<string, { instrument: Instrument; spec: PathSpec; step: number; lot: number }>();

    interface Listed {
      symbol: string;
      name: string;
      spec: PathSpec;
      nse: string;
      bse: string | undefined;
      series: string;
    }
    const listed: Listed[] = [];
    // Well-known names first, so even a small universe has RELIANCE, HDFCBANK, INFY, TCS.
    const order = new Map(KNOWN_EQUITIES.map(([s], i) => [s, i]));
    const fnoOrdered = [...FNO_STOCKS].sort((a, b) => (order.get(a[0]) ?? 1e9) - (order.get(b[0]) ?? 1e9));
    for (const [symbol, lot, step, price] of fnoOrdered) {
      const k = known.get(symbol);
      const vol = 0.2 + 0.12 * hashUnit(this.seed, 'vol', symbol) + (price < 100 ? 0.1 : 0);
      const entry: Listed = {
        symbol,
        name: k?.name ?? `${symbol} Ltd`,
        spec: { price, annualVol: round4(vol) },
        nse: k?.nse ?? String(nseIds()),
        bse: k?.bse,
        series: 'EQ',
      };
      listed.push(entry);
      fnoMeta.set(symbol, { spec: entry.spec, step, lot });
    }
    const taken = new Set([...fnoSymbols, ...INDICES.map((i) => i.symbol)]);
    const generated = generateEquityNames(this.seed, Math.max(0, Math.max(nseCount, bseCount) - listed.length), taken);
    for (const g of generated) {
      const rng = new Rng(this.seed, 'equity', g.symbol);
      const price = Math.min(60000, Math.max(5, Math.exp(Math.log(300) + 1.1 * rng.normal())));
      listed.push({
        symbol: g.symbol,
        name: g.name,
        spec: { price: round4(price), annualVol: round4(0.28 + 0.3 * rng.next()) },
        nse: String(nseIds()),
        bse: undefined,
        series: rng.next() < 0.06 ? 'BE' : 'EQ',
      });
    }
    const nseListed = listed.slice(0, nseCount);
    for (const l of nseListed) {
      const inst = equityInstrument('NSE', l.nse, l.symbol, l.name, l.spec.price, l.series);
      this.add(inst, { key: l.symbol, spec: l.spec });
      const f = fnoMeta.get(l.symbol);
      if (f) fno.set(l.symbol, { ...f, instrument: inst });
    }
    // BSE lists the same companies (the F&O names first, as the most traded), under BSE codes.
    for (const l of listed.slice(0, bseCount)) {
      const code = l.bse ?? String(bseIds());
      this.add(equityInstrument('BSE', code, l.symbol, l.name, l.spec.price, fnoSymbols.has(l.symbol) ? 'A' : 'B'), { key: l.symbol, spec: l.spec });
    }
    return fno;
  }

  private buildDerivativeUnderlyings(stocks: Map<string, { instrument: Instrument; spec: PathSpec; step: number; lot: number }>): void {
    const to = addDays(this.today, 400);
    for (const spec of INDICES) {
      const d = spec.derivatives;
      if (!d) continue;
      const instrument = this.table.get(`${spec.exchange === 'NSE' ? 'NIDX' : 'BIDX'}_${spec.securityId}`)!;
      const path = { price: spec.price, annualVol: spec.annualVol };
      // Dated market rules (config/market-rules/): an index with derivatives must have both.
      const lots = indexLotEras(spec.symbol);
      const expiries = indexExpiryEras(spec.symbol);
      if (!lots || !expiries) {
        throw new ConfigError(`Universe: ${spec.symbol} has derivatives but no ${!lots ? 'lot sizes in config/market-rules/lot-sizes.yaml' : 'expiry weekdays in config/market-rules/expiry-weekdays.yaml'} (indices.${spec.symbol})`, { symbol: spec.symbol });
      }
      this.addEntry({
        info: {
          symbol: spec.symbol,
          kind: 'INDEX',
          exchange: spec.exchange,
          instrument,
          optionType: 'OPTIDX',
          futureType: 'FUTIDX',
          annualVol: spec.annualVol,
          referencePrice: Math.round(spec.price * 100),
        },
        pathKey: spec.symbol,
        path,
        expiryRules: expiries,
        lots,
        halfWidth: d.halfWidth,
        futureTick: Math.round(d.futureTick * 100),
        quarterlies: d.quarterlies,
        stepAt: () => d.strikeStep,
        ...this.splitExpiries(expiries, d.quarterlies, to, d.weeklies ?? LISTED_WEEKLIES),
      });
    }
    for (const [symbol, s] of stocks) {
      this.addEntry({
        info: {
          symbol,
          kind: 'EQUITY',
          exchange: 'NSE',
          instrument: s.instrument,
          optionType: 'OPTSTK',
          futureType: 'FUTSTK',
          annualVol: s.spec.annualVol,
          referencePrice: Math.round(s.spec.price * 100),
        },
        pathKey: symbol,
        path: s.spec,
        expiryRules: stockExpiryEras(),
        lots: [{ from: '2000-01-01', value: s.lot }],
        halfWidth: STOCK_HALF_WIDTH,
        futureTick: s.instrument.tickSize,
        quarterlies: 0,
        // Strike steps scale with the price level, snapped to the exchange's usual steps.
        stepAt: (price) => nearestNice(s.step * (price / s.spec.price)),
        ...this.splitExpiries(stockExpiryEras(), 0, to, 0),
      });
    }
  }

  private addEntry(e: UnderlyingEntry): void {
    this.entries.set(e.info.symbol, e);
    this.entryByScrip.set(e.info.instrument.id, e);
  }

  private splitExpiries(rules: readonly Era<ExpiryRule>[], quarterlies: number, to: string, listedWeeklies: number): { current: ExpiryDate[]; expired: ExpiryDate[] } {
    // Stocks share one rule set: compute its series once.
    let series = this.seriesCache.get(rules);
    if (!series) {
      series = expirySeries(rules, this.calendar, this.historyStart, to);
      this.seriesCache.set(rules, series);
    }
    const expired = series.filter((e) => e.date < this.today);
    const upcoming = series.filter((e) => e.date >= this.today);
    const weeklies = upcoming.filter((e) => e.kind === 'W').slice(0, listedWeeklies);
    const monthlies = upcoming.filter((e) => e.kind === 'M');
    const serial = monthlies.slice(0, LISTED_MONTHLIES);
    const quarterly = monthlies.slice(LISTED_MONTHLIES).filter((e) => isQuarterMonth(e.date)).slice(0, quarterlies);
    const current = [...weeklies, ...serial, ...quarterly].sort((a, b) => (a.date < b.date ? -1 : 1));
    return { current, expired };
  }

  /**
   * Security ids are a hash of the trading symbol, so a contract keeps its id from the day it is
   * listed to its expiry however the universe is rebuilt (a paper run spanning days keeps its
   * positions' ids). Collisions probe upwards; chains are numbered oldest listing first, so a newly
   * listed contract never takes an id from one already trading.
   */
  private materialiseCurrentContracts(): void {
    const taken = { NSE: new Set<number>(), BSE: new Set<number>() };
    const pairs: { entry: UnderlyingEntry; exp: ExpiryDate; listing: string }[] = [];
    for (const entry of this.entries.values()) {
      for (const exp of entry.current) pairs.push({ entry, exp, listing: addDays(exp.date, -listingDays(entry, exp.date, exp.kind)) });
    }
    pairs.sort((a, b) => (a.listing !== b.listing ? (a.listing < b.listing ? -1 : 1) : a.exp.date !== b.exp.date ? (a.exp.date < b.exp.date ? -1 : 1) : a.entry.info.symbol < b.entry.info.symbol ? -1 : 1));
    for (const { entry, exp } of pairs) {
      const used = taken[entry.info.exchange];
      const nextId = (tradingSymbol: string): string => {
        let id = ID_BASE + (hash32(0, 'security-id', entry.info.exchange, tradingSymbol) % ID_SPAN);
        while (used.has(id)) id = id + 1 >= ID_BASE + ID_SPAN ? ID_BASE : id + 1;
        used.add(id);
        return String(id);
      };
      const chain = buildChain(this.paths, this.today, entry, exp, hasFuture(entry, exp), nextId);
      this.currentChains.set(`${entry.info.symbol}|${exp.date}`, chain);
      for (const c of chain) {
        const inst = contractInstrument(c);
        this.add(inst, undefined, true);
        this.contractByScrip.set(inst.id, c);
        this.currentBySymbol.set(c.tradingSymbol, c);
      }
    }
  }
}

function nearestNice(step: number): number {
  let best = NICE_STEPS[0]!;
  for (const s of NICE_STEPS) if (Math.abs(Math.log(s / step)) < Math.abs(Math.log(best / step))) best = s;
  return best;
}

/** Unique increasing ids with seed-fixed gaps, skipping taken ones (real tokens are not dense). */
function idSequence(seed: number, key: string, first: number, maxGap: number, taken: Set<number>): () => number {
  const rng = new Rng(seed, key);
  let next = first;
  return () => {
    while (taken.has(next)) next++;
    const id = next;
    taken.add(id);
    next += 1 + Math.floor(rng.next() * maxGap);
    return id;
  };
}

function round4(x: number): number {
  return Math.round(x * 10000) / 10000;
}
