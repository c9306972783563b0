/**
 * The market model's per-instrument state, as a struct of typed arrays (the model must play a
 * 3,000-instrument day in seconds), and what is made from one instrument's row: its tick and
 * quote, its 5-level depth, its circuit band and 52-week range, a linked contract's model value
 * and settlement, its state at the session open. How the state moves (the price process, the
 * schedule, sessions) is the model's (market-model.ts).
 */
import { roundToTick } from '../../../core/money.js';
import { MINUTE_MS } from '../../../core/time.js';
import type { BookLevel, Depth } from '../matching/types.js';
import { blackScholes } from './black-scholes.js';
import { mix32 } from './rng.js';
import type { ContractValuer, InstrumentOpenState, MarketQuote, MarketTick } from './types.js';

const DEPTH_LEVELS = 5;
/** Where the asks start in the scratch book (bids take the first DEPTH_LEVELS price/qty pairs). */
const ASKS = 2 * DEPTH_LEVELS;

/** The fields of `InstrumentOpenState`, captured at each session open. */
const OPEN_FIELDS = ['prevClose', 'week52High', 'week52Low', 'oi', 'bid', 'ask', 'bidQty', 'askQty', 'lastQty', 'lastTs', 'spotAtTick'] as const;
type OpenField = (typeof OPEN_FIELDS)[number];

export class MarketColumns {
  readonly n: number;
  readonly ids: readonly string[];
  readonly seeds: Uint32Array;
  /** Scratch for one instrument's book (`fillBook`): read at once, never kept. */
  private readonly book = new Float64Array(4 * DEPTH_LEVELS);
  private bidLevels = 0;
  private askLevels = 0;
  readonly fair: Float64Array;
  readonly ltp: Float64Array;
  readonly prevClose: Float64Array;
  readonly open: Float64Array;
  readonly high: Float64Array;
  readonly low: Float64Array;
  readonly bid: Float64Array;
  readonly ask: Float64Array;
  readonly bidQty: Float64Array;
  readonly askQty: Float64Array;
  readonly volume: Float64Array;
  readonly lastQty: Float64Array;
  readonly oi: Float64Array;
  /** A derivative's opening open interest (a linked contract reopens at it each session). */
  readonly baseOi: Float64Array;
  readonly upper: Float64Array;
  readonly lower: Float64Array;
  readonly tick: Float64Array;
  readonly lot: Float64Array;
  readonly sigmaPerMs: Float64Array;
  readonly lotsPerMs: Float64Array;
  /** Scheduled time between ticks, and sigma over that time (the common case, precomputed). */
  readonly intervalMs: Float64Array;
  readonly sigmaStep: Float64Array;
  readonly circuit: Float64Array;
  readonly week52High: Float64Array;
  readonly week52Low: Float64Array;
  readonly lastTs: Float64Array;
  readonly tickCount: Uint32Array;
  readonly isDerivative: Uint8Array;
  /** Linked options: index of the underlying (-1 when not linked), strike, call flag, IV, expiry, offset from setPrice. */
  readonly underlyingOf: Int32Array;
  readonly strike: Float64Array;
  readonly isCall: Uint8Array;
  readonly iv: Float64Array;
  readonly expiryTs: Float64Array;
  readonly offset: Float64Array;
  /** Linked options: their valuer (undefined: flat-IV Black-Scholes), and the underlying's fair value at their last tick. */
  readonly valuers: (ContractValuer | undefined)[];
  readonly spotAtTick: Float64Array;
  /** 1: ticks of this instrument are not handed out (`MarketInstrumentSpec.silent`). */
  readonly silent: Uint8Array;
  /** Per-instrument state at the current session's open (`openState`). */
  private atOpen: Record<OpenField, Float64Array> | undefined;

  constructor(ids: readonly string[]) {
    this.ids = ids;
    const n = (this.n = ids.length);
    const f64 = (): Float64Array => new Float64Array(n);
    this.fair = f64();
    this.ltp = f64();
    this.prevClose = f64();
    this.open = f64();
    this.high = f64();
    this.low = f64();
    this.bid = f64();
    this.ask = f64();
    this.bidQty = f64();
    this.askQty = f64();
    this.volume = f64();
    this.lastQty = f64();
    this.oi = f64();
    this.baseOi = f64();
    this.upper = f64();
    this.lower = f64();
    this.tick = f64();
    this.lot = f64();
    this.sigmaPerMs = f64();
    this.lotsPerMs = f64();
    this.intervalMs = f64();
    this.sigmaStep = f64();
    this.circuit = f64();
    this.week52High = f64();
    this.week52Low = f64();
    this.lastTs = f64();
    this.tickCount = new Uint32Array(n);
    this.isDerivative = new Uint8Array(n);
    this.underlyingOf = new Int32Array(n).fill(-1);
    this.strike = f64();
    this.isCall = new Uint8Array(n);
    this.iv = f64();
    this.expiryTs = f64();
    this.offset = f64();
    this.valuers = new Array<ContractValuer | undefined>(n).fill(undefined);
    this.spotAtTick = f64();
    this.silent = new Uint8Array(n);
    this.seeds = new Uint32Array(n);
  }

  // ------------------------------------------------------------------------------------------
  // Reads

  tickOf(i: number, ts: number, mode: 'open' | undefined): MarketTick {
    return {
      type: 'tick',
      ts,
      instrument: this.ids[i]!,
      ltp: this.ltp[i]!,
      volume: this.volume[i]!,
      bid: this.bid[i]!,
      ask: this.ask[i]!,
      bidQty: this.bidQty[i]!,
      askQty: this.askQty[i]!,
      open: this.open[i]!,
      high: this.high[i]!,
      low: this.low[i]!,
      close: this.prevClose[i]!,
      oi: this.isDerivative[i] ? this.oi[i]! : undefined,
      ltt: ts,
      upperCircuit: this.upper[i]!,
      lowerCircuit: this.lower[i]!,
      lastQty: this.lastQty[i]!,
      mode,
    };
  }

  /** Full quote (spec 2.4). */
  quoteOf(i: number): MarketQuote {
    const depth = this.depthOf(i);
    const ltp = this.ltp[i]!;
    const prev = this.prevClose[i]!;
    const totalBuyQty = this.totalBuyQty();
    const totalSellQty = this.totalSellQty();
    return {
      instrument: this.ids[i]!,
      ts: this.lastTs[i]!,
      ltp,
      open: this.open[i]!,
      high: this.high[i]!,
      low: this.low[i]!,
      prevClose: prev,
      dayChange: ltp - prev,
      dayChangePct: Math.round(((ltp - prev) / prev) * 10_000) / 100,
      week52High: Math.max(this.week52High[i]!, this.high[i]!),
      week52Low: Math.min(this.week52Low[i]!, this.low[i]!),
      upperCircuit: this.upper[i]!,
      lowerCircuit: this.lower[i]!,
      volume: this.volume[i]!,
      bid: this.bid[i]!,
      ask: this.ask[i]!,
      bidQty: this.bidQty[i]!,
      askQty: this.askQty[i]!,
      depth,
      totalBuyQty,
      totalSellQty,
      oi: this.isDerivative[i] ? this.oi[i]! : undefined,
      ltt: this.lastTs[i]!,
    };
  }

  /** 5-level depth around the current top of book; deterministic for a given state. */
  depthOf(i: number): Depth {
    this.fillBook(i);
    const bids: BookLevel[] = [];
    const asks: BookLevel[] = [];
    const b = this.book;
    for (let k = 0; k < this.bidLevels; k++) bids.push({ price: b[2 * k]!, qty: b[2 * k + 1]! });
    for (let k = 0; k < this.askLevels; k++) asks.push({ price: b[ASKS + 2 * k]!, qty: b[ASKS + 2 * k + 1]! });
    return { bids, asks };
  }

  /**
   * The book totals a full quote and a full-mode tick carry (`total_buy_qty`, `total_sell_qty`),
   * without building the depth: the WebSocket sends one per tick.
   */
  bookTotals(i: number): { readonly buy: number; readonly sell: number } {
    this.fillBook(i);
    return { buy: this.totalBuyQty(), sell: this.totalSellQty() };
  }

  /**
   * Totals of the book `fillBook` left in the scratch: the whole book holds far more than the top
   * five levels show; scaled as brokers' totals are.
   */
  private totalBuyQty(): number {
    let s = 0;
    for (let k = 0; k < this.bidLevels; k++) s += this.book[2 * k + 1]!;
    return s * 8;
  }

  private totalSellQty(): number {
    let s = 0;
    for (let k = 0; k < this.askLevels; k++) s += this.book[ASKS + 2 * k + 1]!;
    return s * 8;
  }

  /**
   * Builds instrument `i`'s 5-level book into the scratch (`book`: bid price/qty pairs from 0,
   * ask pairs from ASKS; `bidLevels`/`askLevels` of them), the one place its levels are drawn.
   */
  private fillBook(i: number): void {
    // A private stream keyed by the instrument and its tick count: the same state, the same book,
    // and building it does not disturb the price path.
    let s = mix32(this.seeds[i]! ^ Math.imul(this.tickCount[i]! + 1, 0x9e3779b1));
    const next = (): number => {
      s = mix32(s + 0x6d2b79f5);
      return s / 4294967296;
    };
    const tick = this.tick[i]!;
    const lot = this.lot[i]!;
    const unit = Math.max(this.bidQty[i]!, this.askQty[i]!, lot);
    const b = this.book;
    let nb = 0;
    let na = 0;
    let bp = this.bid[i]!;
    let ap = this.ask[i]!;
    for (let k = 0; k < DEPTH_LEVELS; k++) {
      const bq = k === 0 ? this.bidQty[i]! : lot * Math.max(1, Math.round((unit / lot) * (0.5 + 1.5 * next())));
      const aq = k === 0 ? this.askQty[i]! : lot * Math.max(1, Math.round((unit / lot) * (0.5 + 1.5 * next())));
      if (bp >= this.lower[i]! && bp > 0) {
        b[2 * nb] = bp;
        b[2 * nb + 1] = bq;
        nb++;
      }
      if (ap <= this.upper[i]!) {
        b[ASKS + 2 * na] = ap;
        b[ASKS + 2 * na + 1] = aq;
        na++;
      }
      const gap = next() < 0.7 ? 1 : 2;
      bp -= gap * tick;
      ap += (next() < 0.7 ? 1 : 2) * tick;
    }
    this.bidLevels = nb;
    this.askLevels = na;
  }

  // ------------------------------------------------------------------------------------------
  // Session open

  /** Keeps every instrument's state at this session's open (`openStateOf`). */
  captureOpen(): void {
    const a = {} as Record<OpenField, Float64Array>;
    for (const f of OPEN_FIELDS) a[f] = this[f].slice();
    this.atOpen = a;
  }

  /** Where instrument `i` stood at the current session's open. */
  openStateOf(i: number): InstrumentOpenState {
    const a = this.atOpen!;
    return {
      prevClose: a.prevClose[i]!,
      week52High: a.week52High[i]!,
      week52Low: a.week52Low[i]!,
      oi: a.oi[i]!,
      bid: a.bid[i]!,
      ask: a.ask[i]!,
      bidQty: a.bidQty[i]!,
      askQty: a.askQty[i]!,
      lastQty: a.lastQty[i]!,
      lastTs: a.lastTs[i]!,
      spotAtTick: a.spotAtTick[i]!,
    };
  }

  /** Puts instrument `i` where `st` says it stood at the open (the day figures start from its previous close). */
  restore(i: number, st: InstrumentOpenState): void {
    const prev = st.prevClose;
    this.prevClose[i] = this.fair[i] = this.ltp[i] = this.open[i] = this.high[i] = this.low[i] = prev;
    this.week52High[i] = st.week52High;
    this.week52Low[i] = st.week52Low;
    this.oi[i] = st.oi;
    this.bid[i] = st.bid;
    this.ask[i] = st.ask;
    this.bidQty[i] = st.bidQty;
    this.askQty[i] = st.askQty;
    this.lastQty[i] = st.lastQty;
    this.lastTs[i] = st.lastTs;
    this.spotAtTick[i] = st.spotAtTick;
    this.setBand(i);
  }

  /**
   * A linked contract at a session open: its previous close is its model value at the
   * underlying's previous close at `closeTs` (a settlement price: a function of the underlying's
   * path only), open interest back at its opening figure, range and band around that close.
   */
  settleLinked(i: number, closeTs: number): void {
    const u = this.underlyingOf[i]!;
    const tick = this.tick[i]!;
    const spot = this.prevClose[u]!;
    const prev = Math.max(tick, roundToTick(this.linkedValue(i, spot, closeTs), tick));
    this.prevClose[i] = this.fair[i] = this.ltp[i] = this.open[i] = this.high[i] = this.low[i] = prev;
    this.offset[i] = 0;
    this.oi[i] = this.baseOi[i]!;
    this.bid[i] = Math.max(tick, prev - tick);
    this.ask[i] = prev + tick;
    this.bidQty[i] = this.askQty[i] = this.lot[i]!;
    this.lastQty[i] = 0;
    this.lastTs[i] = closeTs;
    this.spotAtTick[i] = spot;
    if (this.strike[i]! > 0) this.optionRange(i, prev);
    else this.plainRange(i, prev);
    this.setBand(i);
  }

  // ------------------------------------------------------------------------------------------
  // Prices derived from a row

  /** A 52-week range around `prev` drawn from the instrument's seed (no history to take it from). */
  plainRange(i: number, prev: number): void {
    const tick = this.tick[i]!;
    const w = 0.15 + 0.35 * ((mix32(this.seeds[i]!) >>> 8) / 16777216);
    this.week52High[i] = roundToTick(prev * (1 + w), tick);
    this.week52Low[i] = Math.max(tick, roundToTick(prev * (1 - w / 1.5), tick));
  }

  /** An option's (wider) range: options move by multiples, not percent. */
  optionRange(i: number, prev: number): void {
    const tick = this.tick[i]!;
    const w = 0.5 + ((mix32(this.seeds[i]!) >>> 8) / 16777216);
    this.week52High[i] = roundToTick(prev * (1 + 2 * w), tick);
    this.week52Low[i] = Math.max(tick, roundToTick(prev * (1 - w / 1.6), tick));
  }

  /** Model value of a linked derivative at underlying price `spot` and time `ts`; never below one tick. */
  linkedValue(i: number, spot: number, ts: number): number {
    const valuer = this.valuers[i];
    if (valuer) return Math.max(this.tick[i]!, valuer(spot, ts));
    const years = Math.max(this.expiryTs[i]! - ts, MINUTE_MS) / (365 * 24 * 60 * MINUTE_MS);
    return Math.max(this.tick[i]!, blackScholes(this.isCall[i] === 1, spot, this.strike[i]!, years, this.iv[i]!));
  }

  /** The circuit band around the previous close. */
  setBand(i: number): void {
    const prev = this.prevClose[i]!;
    const tick = this.tick[i]!;
    if (this.underlyingOf[i]! >= 0 && this.strike[i]! > 0) {
      // NSE's option bands follow the underlying's move: in practice no band at all for a model
      // price that already follows it. Keep a wide one so the arithmetic stays uniform.
      this.upper[i] = roundToTick(prev * 10 + this.strike[i]! * 0.2, tick, 'down');
      this.lower[i] = tick;
      return;
    }
    const c = this.circuit[i]!;
    this.upper[i] = roundToTick(prev * (1 + c), tick, 'down');
    this.lower[i] = Math.max(tick, roundToTick(prev * (1 - c), tick, 'up'));
  }
}
