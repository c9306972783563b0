/**
 * The option chain endpoints: the current chain (spec 4.3) and the announced utility endpoints
 * (spec 4.4): chain rows, expiries as `DD-MMM-YYYY`, greeks per token.
 */
import type { Clock } from '../../../core/clock.js';
import type { Greeks } from '../../../core/greeks.js';
import { bsGreeks, impliedVolatility, yearsToExpiry } from '../../../core/greeks.js';
import type { Paise } from '../../../core/money.js';
import { formatRupees, roundToTick } from '../../../core/money.js';
import { MINUTE_MS, istDate, istMidnight } from '../../../core/time.js';
import type { HistoryService } from '../history/history-service.js';
import type { LinkedMark } from '../market/types.js';
import type { ApiResult, RawQuery } from '../universe/api-result.js';
import { badRequest, ok } from '../universe/api-result.js';
import { Rng } from '../universe/rng.js';
import type { Contract, Underlying } from '../universe/types.js';
import type { Universe } from '../universe/universe.js';
import { OptionPricer } from './option-pricer.js';
import type { ChainLegWire, ChainStrikeWire, GreeksWire, OptionChainWire, UtilityChainRowWire } from './types.js';
import type { VolatilityModel } from './volatility-model.js';

export const STRIKE_COUNT_DEFAULT = 10;

/**
 * Live last prices from the market model, by scrip code; undefined for an instrument it does not
 * track (then the candle generator's price at `now` is used).
 */
export type LivePriceSource = (scripCode: string) => Paise | undefined;

/**
 * A live option's last price with the underlying's value (paise) and the time it was made at, so
 * its implied volatility is read from a consistent pair rather than a stale price against a
 * spot that has moved since; undefined when the live market does not price that option.
 */
export type LiveOptionMarkSource = (scripCode: string) => LinkedMark | undefined;

export interface OptionChainServiceOptions {
  readonly universe: Universe;
  readonly history: HistoryService;
  readonly clock: Clock;
  /** Default: a model seeded with the universe's seed. */
  readonly vol?: VolatilityModel;
  readonly livePrice?: LivePriceSource;
  readonly liveMark?: LiveOptionMarkSource;
  /** Called with every scrip code one answer is about to price (spot and legs), so the live market models them at once. */
  readonly prepare?: (scripCodes: readonly string[]) => void;
}

export const STRIKE_COUNT_MAX = 100;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A contract's leg as the chain and the greeks endpoint compute it. */
interface LegState {
  readonly ltp: Paise;
  readonly iv: number;
  readonly greeks: Greeks;
}

export class OptionChainService {
  private readonly universe: Universe;
  private readonly history: HistoryService;
  private readonly clock: Clock;
  private readonly pricer: OptionPricer;
  private livePrice: LivePriceSource | undefined;
  private readonly liveMark: LiveOptionMarkSource | undefined;
  private readonly prepare: ((scripCodes: readonly string[]) => void) | undefined;

  constructor(options: OptionChainServiceOptions) {
    this.universe = options.universe;
    this.history = options.history;
    this.clock = options.clock;
    this.livePrice = options.livePrice;
    this.liveMark = options.liveMark;
    this.prepare = options.prepare;
    // One surface for candles and chain, unless the caller insists on its own model.
    this.pricer = options.vol ? new OptionPricer(options.vol, options.history.pricer.rate) : options.history.pricer;
  }

  setLivePriceSource(src: LivePriceSource | undefined): void {
    this.livePrice = src;
  }

  /** GET /market/option-chain?exchange=&segment=&underlying-scrip=&expiry=&strike_count= */
  chain(q: RawQuery): ApiResult<OptionChainWire> {
    const exchange = (q['exchange'] ?? '').trim().toUpperCase();
    if (exchange === '') return badRequest('exchange is required', 'exchange');
    if (exchange !== 'NSE' && exchange !== 'BSE') return badRequest(`exchange ${JSON.stringify(q['exchange'])} is invalid; use NSE or BSE`, 'exchange');
    const segment = (q['segment'] ?? '').trim().toUpperCase();
    if (segment === '') return badRequest('segment is required', 'segment');
    if (segment !== 'INDEX' && segment !== 'EQUITY') return badRequest(`segment ${JSON.stringify(q['segment'])} is invalid; use INDEX or EQUITY`, 'segment');
    const id = (q['underlying-scrip'] ?? '').trim();
    if (id === '') return badRequest('underlying-scrip is required', 'underlying-scrip');
    const scrip = segment === 'INDEX' ? `${exchange === 'NSE' ? 'NIDX' : 'BIDX'}_${id}` : `${exchange}_${id}`;
    const u = this.universe.underlyingOf(scrip);
    if (!u) return badRequest(`underlying-scrip ${id} is invalid or has no options on ${exchange} ${segment}`, 'underlying-scrip');
    const expiry = (q['expiry'] ?? '').trim();
    if (expiry === '') return badRequest('expiry is required', 'expiry');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(expiry)) return badRequest(`expiry must be YYYY-MM-DD, got ${JSON.stringify(q['expiry'])}`, 'expiry');
    if (!this.universe.currentExpiries(u.symbol).includes(expiry)) return badRequest(`expiry ${expiry} is invalid or unknown for ${u.symbol}`, 'expiry');
    const countText = (q['strike_count'] ?? '').trim();
    let count = STRIKE_COUNT_DEFAULT;
    if (countText !== '') {
      if (!/^\d+$/.test(countText) || Number(countText) < 1 || Number(countText) > STRIKE_COUNT_MAX) {
        return badRequest(`strike_count must be an integer from 1 to ${STRIKE_COUNT_MAX}, got ${JSON.stringify(q['strike_count'])}`, 'strike_count');
      }
      count = Number(countText);
    }

    const now = this.clock.now();
    const spot = this.spot(u.instrument.id, now);
    const byStrike = this.optionsByStrike(u.symbol, expiry);
    const strikes = [...byStrike.keys()];
    const atmIndex = nearestIndex(strikes, spot);
    const chosen = strikes.slice(Math.max(0, atmIndex - count), atmIndex + count + 1);
    this.prepareLegs(chosen.flatMap((k) => [byStrike.get(k)!.CE, byStrike.get(k)!.PE]));
    const act = this.activityClock(now);
    const rows: ChainStrikeWire[] = [];
    for (const k of chosen) {
      const pair = byStrike.get(k)!;
      rows.push({ strike_price: k / 100, ce: this.leg(u, pair.CE, spot, now, act), pe: this.leg(u, pair.PE, spot, now, act) });
    }
    return ok({
      underlying: { exchange, segment, security_id: id, symbol: u.symbol, ltp: spot / 100 },
      expiry,
      atm_strike: (strikes[atmIndex] ?? 0) / 100,
      strikes: rows,
    });
  }

  /** GET /option-chain (announced) with body {token, count, expiry: DD-MMM-YYYY}. */
  utilityChain(body: unknown): ApiResult<readonly UtilityChainRowWire[]> {
    if (!isRecord(body)) return badRequest('body must be a JSON object with token, count and expiry', 'body');
    const u = this.underlyingByToken(body['token']);
    if (!u.ok) return u;
    const countText = stringOf(body['count']);
    if (countText === undefined || !/^\d+$/.test(countText) || Number(countText) < 1 || Number(countText) > STRIKE_COUNT_MAX) {
      return badRequest(`count must be an integer from 1 to ${STRIKE_COUNT_MAX} (strikes each side), got ${JSON.stringify(body['count'])}`, 'count');
    }
    const expiry = parseDdMmmYyyy(stringOf(body['expiry']));
    if (!expiry) return badRequest(`expiry must be DD-MMM-YYYY (for example 24-Nov-2026), got ${JSON.stringify(body['expiry'])}`, 'expiry');
    if (!this.universe.currentExpiries(u.data.symbol).includes(expiry)) return badRequest(`expiry ${stringOf(body['expiry'])} is invalid or unknown for ${u.data.symbol}`, 'expiry');
    const count = Number(countText);
    const spot = this.spot(u.data.instrument.id, this.clock.now());
    const byStrike = this.optionsByStrike(u.data.symbol, expiry);
    const strikes = [...byStrike.keys()];
    const atm = nearestIndex(strikes, spot);
    const rows: UtilityChainRowWire[] = [];
    for (const k of strikes.slice(Math.max(0, atm - count), atm + count + 1)) {
      const pair = byStrike.get(k)!;
      for (const c of [pair.CE, pair.PE]) {
        rows.push({
          exchange: c.exchange,
          symbol: c.tradingSymbol,
          token: c.securityId ?? '',
          optionType: c.optionType!,
          strikePrice: formatRupees(c.strike!),
          pricePrecision: '2',
          tickSize: formatRupees(c.tickSize),
          lotSize: String(c.lotSize),
        });
      }
    }
    return ok(rows);
  }

  /** GET /option-chain-symbols (announced) with body {token}: `{expiries}` as DD-MMM-YYYY, ascending. */
  utilityExpiries(body: unknown): ApiResult<{ readonly expiries: readonly string[] }> {
    if (!isRecord(body)) return badRequest('body must be a JSON object with token', 'body');
    const u = this.underlyingByToken(body['token']);
    if (!u.ok) return u;
    return ok({ expiries: this.universe.currentExpiries(u.data.symbol).map(formatDdMmmYyyy) });
  }

  /** POST /greeks (announced) with a JSON array of option tokens: one element per token, in order. */
  greeks(body: unknown): ApiResult<readonly GreeksWire[]> {
    if (!Array.isArray(body) || body.length === 0) return badRequest('body must be a non-empty JSON array of option tokens', 'body');
    const contracts: Contract[] = [];
    const bad: string[] = [];
    for (const t of body as unknown[]) {
      const token = stringOf(t);
      const c = token === undefined ? undefined : (this.universe.contractOf(`NFO_${token}`) ?? this.universe.contractOf(`BFO_${token}`));
      if (!c || c.strike === null) bad.push(JSON.stringify(t));
      else contracts.push(c);
    }
    if (bad.length > 0) return badRequest(`invalid instrument tokens: ${bad.join(', ')} (option tokens of current contracts expected)`, 'tokens', 'DataException');
    const now = this.clock.now();
    const spots = new Map<string, Paise>();
    this.prepareLegs(contracts);
    return ok(
      contracts.map((c) => {
        const u = this.universe.underlying(c.underlying)!;
        let spot = spots.get(u.symbol);
        if (spot === undefined) {
          spot = this.spot(u.instrument.id, now);
          spots.set(u.symbol, spot);
        }
        const s = this.legState(u, c, spot, now);
        return { token: c.securityId ?? '', iv: round(s.iv, 6), delta: round(s.greeks.delta, 6), gamma: round(s.greeks.gamma, 8), theta: round(s.greeks.theta, 4), vega: round(s.greeks.vega, 4) };
      }),
    );
  }

  /**
   * The underlying's price at `now`, paise: the live model's when attached, else the generated
   * path's (the minute in progress, or the last close outside the session).
   */
  spot(scripCode: string, now: number): Paise {
    const live = this.livePrice?.(scripCode);
    if (live !== undefined) return live;
    const cal = this.universe.calendar;
    const session = cal.session(istDate(now));
    if (session && now >= session.open && now < session.close) {
      const bars = this.history.minuteBars(scripCode, session.date);
      const bar = bars[Math.min(bars.length - 1, Math.floor((now - session.open) / MINUTE_MS))];
      if (bar) return bar.open;
    }
    const last = session && now >= session.close ? session.date : cal.previousTradingDay(istDate(now));
    const bars = this.history.minuteBars(scripCode, last);
    const close = bars[bars.length - 1]?.close;
    if (close === undefined) throw new RangeError(`no simulated price for ${scripCode} on ${last}`);
    return close;
  }

  // ---- internals ------------------------------------------------------------------------------

  private optionsByStrike(symbol: string, expiry: string): Map<Paise, { CE: Contract; PE: Contract }> {
    const map = new Map<Paise, { CE?: Contract; PE?: Contract }>();
    for (const c of this.universe.contracts(symbol, expiry)) {
      if (c.strike === null || c.optionType === null) continue;
      const e = map.get(c.strike) ?? {};
      e[c.optionType] = c;
      map.set(c.strike, e);
    }
    const out = new Map<Paise, { CE: Contract; PE: Contract }>();
    for (const [k, v] of [...map.entries()].sort((a, b) => a[0] - b[0])) if (v.CE && v.PE) out.set(k, { CE: v.CE, PE: v.PE });
    return out;
  }

  private prepareLegs(contracts: readonly Contract[]): void {
    if (!this.prepare) return;
    const codes: string[] = [];
    for (const c of contracts) {
      const code = this.universe.scripCodeOf(c);
      if (code !== undefined) codes.push(code);
    }
    this.prepare(codes);
  }

  private legState(u: Underlying, c: Contract, spot: Paise, now: number): LegState {
    const model = this.pricer.quote(u, c, spot, now);
    const code = this.universe.scripCodeOf(c);
    const mark = code === undefined ? undefined : this.liveMark?.(code);
    if (mark && mark.ts > 0) {
      // The volatility the last trade implies, at the spot and time it was made; greeks at now.
      const at = { type: c.optionType!, strike: c.strike! / 100, rate: this.pricer.rate };
      const iv = impliedVolatility({ ...at, spot: mark.spot / 100, years: yearsToExpiry(mark.ts, c.expiry), price: mark.ltp / 100 }) ?? model.iv!;
      return { ltp: mark.ltp, iv, greeks: bsGreeks({ ...at, spot: spot / 100, years: yearsToExpiry(now, c.expiry), vol: iv }) };
    }
    const live = code === undefined ? undefined : this.livePrice?.(code);
    if (live === undefined || live === model.price) return { ltp: model.price, iv: model.iv!, greeks: model.greeks! };
    // A live price implies its own volatility; fall back to the model's where none fits.
    const years = yearsToExpiry(now, c.expiry);
    const base = { type: c.optionType!, spot: spot / 100, strike: c.strike! / 100, years, rate: this.pricer.rate };
    const iv = impliedVolatility({ ...base, price: live / 100 }) ?? model.iv!;
    return { ltp: live, iv, greeks: bsGreeks({ ...base, vol: iv }) };
  }

  private leg(u: Underlying, c: Contract, spot: Paise, now: number, act: ActivityClock): ChainLegWire {
    const s = this.legState(u, c, spot, now);
    const gen = this.history.generator;
    const prevOi = gen.openInterest(c, act.prevDate);
    const oiToday = gen.openInterest(c, act.date);
    const oi = Math.round((prevOi + (oiToday - prevOi) * act.fraction) / c.lotSize) * c.lotSize;
    let volume = 0;
    if (act.minutesElapsed > 0) {
      const v = gen.minuteVolumes(c, act.date, act.sessionMinutes);
      for (let k = 0; k < act.minutesElapsed && k < v.length; k++) volume += v[k]!;
    }
    const tick = c.tickSize;
    const half = Math.max(tick, roundToTick(s.ltp * 0.0015, tick));
    const bid = Math.max(tick, s.ltp - half);
    const ask = Math.max(bid + tick, s.ltp + half);
    const depth = new Rng(this.universe.seed, 'chain-depth', c.tradingSymbol, Math.floor(now / MINUTE_MS));
    return {
      security_id: c.securityId ?? '',
      trading_symbol: c.tradingSymbol,
      option_type: c.optionType!,
      ltp: s.ltp / 100,
      oi,
      prev_oi: prevOi,
      volume,
      bid_price: bid / 100,
      bid_qty: depth.int(1, 40) * c.lotSize,
      ask_price: ask / 100,
      ask_qty: depth.int(1, 40) * c.lotSize,
      iv: round(s.iv, 6),
      delta: round(s.greeks.delta, 6),
      gamma: round(s.greeks.gamma, 8),
      theta: round(s.greeks.theta, 4),
      vega: round(s.greeks.vega, 4),
    };
  }

  /** Where `now` sits in the trading day, for OI and cumulative volume. */
  private activityClock(now: number): ActivityClock {
    const cal = this.universe.calendar;
    const s = cal.currentOrPreviousSession(now);
    const sessionMinutes = Math.round((s.close - s.open) / MINUTE_MS);
    const minutesElapsed = Math.max(0, Math.min(sessionMinutes, Math.floor((now - s.open) / MINUTE_MS)));
    return { date: s.date, prevDate: cal.previousTradingDay(s.date), sessionMinutes, minutesElapsed, fraction: minutesElapsed / sessionMinutes };
  }

  private underlyingByToken(token: unknown): ApiResult<Underlying> {
    const t = stringOf(token);
    if (t === undefined || !/^\d+$/.test(t)) return badRequest(`token must be the numeric id of an index or stock, got ${JSON.stringify(token)}`, 'token');
    // Index ids first: an index and a stock may share a number (BANKNIFTY 25, ADANIENT 25).
    const u = this.universe.underlyingOf(`NIDX_${t}`) ?? this.universe.underlyingOf(`BIDX_${t}`) ?? this.universe.underlyingOf(`NSE_${t}`);
    return u ? ok(u) : badRequest(`token ${t} is invalid or has no options`, 'token');
  }
}

interface ActivityClock {
  readonly date: string;
  readonly prevDate: string;
  readonly sessionMinutes: number;
  readonly minutesElapsed: number;
  readonly fraction: number;
}

function nearestIndex(sorted: readonly number[], x: number): number {
  let best = 0;
  for (let i = 1; i < sorted.length; i++) if (Math.abs(sorted[i]! - x) < Math.abs(sorted[best]! - x)) best = i;
  return best;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** `24-Nov-2026` (the announced endpoints' form) from `2026-11-24`. */
export function formatDdMmmYyyy(date: string): string {
  return `${date.slice(8, 10)}-${MONTHS[Number(date.slice(5, 7)) - 1]}-${date.slice(0, 4)}`;
}

/** `2026-11-24` from `24-Nov-2026` (month case-insensitive); undefined when malformed. */
export function parseDdMmmYyyy(text: string | undefined): string | undefined {
  const m = /^(\d{2})-([A-Za-z]{3})-(\d{4})$/.exec(text ?? '');
  if (!m) return undefined;
  const month = MONTHS.findIndex((x) => x.toLowerCase() === m[2]!.toLowerCase());
  if (month < 0) return undefined;
  const date = `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1]}`;
  try {
    istMidnight(date);
    return date;
  } catch {
    return undefined;
  }
}
