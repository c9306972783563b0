/**
 * Seeded, deterministic price paths for many instruments at once: geometric Brownian motion per
 * instrument, scaled by the intraday U-shaped activity profile, on the instrument's tick size,
 * inside its circuit band, with a top of book, lazily built 5-level depth, cumulative volume and
 * open interest for derivatives.
 *
 * Time is whatever the caller says: `advanceTo(ts)` returns the ticks due up to `ts` (the server
 * drives it from its clock, a backtest or bench from a loop). Instruments tick on a grid of
 * `slotMs` slots, each on its own interval and phase, and all of them at the session open. Each
 * instrument draws from its own random stream, so a path depends only on the seed, the instrument
 * and the calls that touched it (`setPrice`), never on how finely time was advanced.
 *
 * State is kept in typed arrays (struct of arrays): the model must play a 3,000-instrument day in
 * seconds.
 */
import { z } from 'zod';
import { ConfigError, TarangError } from '../../../core/errors.js';
import type { Instrument } from '../../../core/instruments.js';
import { roundToTick, type Paise } from '../../../core/money.js';
import { MINUTE_MS, istDateTime } from '../../../core/time.js';
import type { BookLevel, Depth } from '../matching/types.js';
import { activity } from './activity.js';
import { blackScholes } from './black-scholes.js';
import { RandomStreams, exponentialFromBits, hashSeed, mix32, normalFromBits, sessionStreamSeed } from './rng.js';
import type { MarketInstrumentSpec, MarketQuote, MarketTick, LinkedMark, ContractValuer, InstrumentOpenState } from './types.js';
import { formatZodIssues } from '../../../core/zod-issues.js';

export const MarketModelOptionsSchema = z
  .object({
    seed: z.number().int(),
    /** Session open of the first day, epoch ms (09:15 IST). */
    sessionOpen: z.number().int(),
    /** Session length; default 375 minutes (09:15-15:30). */
    sessionLengthMs: z.number().int().positive().default(375 * MINUTE_MS),
    /** Default mean time between an instrument's ticks. */
    tickIntervalMs: z.number().int().positive().default(2000),
    /** Resolution of the tick schedule. */
    slotMs: z.number().int().positive().default(250),
    /** Overnight gap volatility as a share of one day's volatility. */
    overnightGapFactor: z.number().min(0).default(0.3),
    /**
     * Close (epoch ms) of the session before `sessionOpen`, when the model opens a later session
     * of a run: streams start as `startSession` restarts them, instruments start from their
     * `openState`, and a linked contract without one opens at its settlement off the underlying's
     * previous close at that time, as it would have after playing the sessions before.
     */
    resumeAfter: z.number().int().optional(),
  })
  .strict();
export type MarketModelOptions = z.input<typeof MarketModelOptionsSchema>;

/** Trading time in a year, for scaling annual volatility: 252 sessions of 375 minutes. */
const YEAR_MS = 252 * 375 * MINUTE_MS;
const DEPTH_LEVELS = 5;

/** The fields of `InstrumentOpenState`, captured at each session open. */
const OPEN_FIELDS = ['prevClose', 'week52High', 'week52Low', 'oi', 'bid', 'ask', 'bidQty', 'askQty', 'lastQty', 'lastTs', 'spotAtTick'] as const;
type OpenField = (typeof OPEN_FIELDS)[number];

/** A market model call named an instrument the model does not hold. */
export class UnknownInstrumentError extends TarangError {
  readonly code = 'MARKET_UNKNOWN_INSTRUMENT' as const;
}

export class MarketModel {
  readonly options: z.output<typeof MarketModelOptionsSchema>;
  private readonly specs: readonly MarketInstrumentSpec[];
  private readonly ids: readonly string[];
  private readonly index = new Map<string, number>();
  private readonly rng: RandomStreams;
  private readonly seeds: Uint32Array;
  private readonly n: number;
  // Per-instrument state (struct of arrays).
  private readonly fair: Float64Array;
  private readonly ltp: Float64Array;
  private readonly prevClose: Float64Array;
  private readonly open: Float64Array;
  private readonly high: Float64Array;
  private readonly low: Float64Array;
  private readonly bid: Float64Array;
  private readonly ask: Float64Array;
  private readonly bidQty: Float64Array;
  private readonly askQty: Float64Array;
  private readonly volume: Float64Array;
  private readonly lastQty: Float64Array;
  private readonly oi: Float64Array;
  /** A derivative's opening open interest (a linked contract reopens at it each session). */
  private readonly baseOi: Float64Array;
  private readonly upper: Float64Array;
  private readonly lower: Float64Array;
  private readonly tick: Float64Array;
  private readonly lot: Float64Array;
  private readonly sigmaPerMs: Float64Array;
  private readonly lotsPerMs: Float64Array;
  /** Scheduled time between ticks, and sigma over that time (the common case, precomputed). */
  private readonly intervalMs: Float64Array;
  private readonly sigmaStep: Float64Array;
  private readonly circuit: Float64Array;
  private readonly week52High: Float64Array;
  private readonly week52Low: Float64Array;
  private readonly lastTs: Float64Array;
  private readonly tickCount: Uint32Array;
  private readonly isDerivative: Uint8Array;
  /** Linked options: index of the underlying (-1 when not linked), strike, call flag, IV, expiry, offset from setPrice. */
  private readonly underlyingOf: Int32Array;
  private readonly strike: Float64Array;
  private readonly isCall: Uint8Array;
  private readonly iv: Float64Array;
  private readonly expiryTs: Float64Array;
  private readonly offset: Float64Array;
  /** Linked options: their valuer (undefined: flat-IV Black-Scholes), and the underlying's fair value at their last tick. */
  private readonly valuers: (ContractValuer | undefined)[];
  private readonly spotAtTick: Float64Array;
  /** 1: ticks of this instrument are not handed out (`MarketInstrumentSpec.silent`). */
  private readonly silent: Uint8Array;
  /** slots between ticks -> phase -> instruments. */
  private readonly schedule: Array<{ every: number; byPhase: number[][] }>;
  private readonly openOrder: number[];
  /** Per-instrument state at the current session's open (`openState`). */
  private atOpen: Record<OpenField, Float64Array> | undefined;
  private sessionOpen: number;
  private nextSlot = 0;
  private slotsPerSession: number;
  private sessionLength: number;

  constructor(specs: Iterable<MarketInstrumentSpec>, options: MarketModelOptions) {
    const parsed = MarketModelOptionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new ConfigError(`market model options: ${formatZodIssues(parsed.error, { root: '(root)' })}`, {});
    }
    this.options = parsed.data;
    this.specs = [...specs];
    this.ids = this.specs.map((x) => x.instrument.id);
    const n = (this.n = this.specs.length);
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
    const { slotMs, sessionLengthMs } = this.options;
    this.sessionOpen = this.options.sessionOpen;
    this.sessionLength = sessionLengthMs;
    this.slotsPerSession = Math.ceil(sessionLengthMs / slotMs);
    const groups = new Map<number, number[][]>();
    this.specs.forEach((s, i) => {
      const inst = s.instrument;
      if (this.index.has(inst.id)) throw new ConfigError(`market model: instrument ${inst.id} is listed twice`, { instrument: inst.id });
      this.index.set(inst.id, i);
      const where = `market model: ${inst.id}`;
      if (!Number.isSafeInteger(s.prevClose) || s.prevClose <= 0) throw new ConfigError(`${where}: prevClose must be a positive number of paise`, {});
      const d = defaultsFor(inst);
      const vol = s.volatility ?? d.volatility;
      const circuit = s.circuitPct ?? d.circuitPct;
      if (!(vol >= 0) || !(circuit > 0 && circuit < 1)) throw new ConfigError(`${where}: volatility must be >= 0 and circuitPct in (0, 1)`, {});
      this.seeds[i] = hashSeed(inst.id, this.options.seed);
      this.silent[i] = s.silent === true ? 1 : 0;
      this.tick[i] = inst.tickSize;
      this.lot[i] = Math.max(1, inst.lotSize);
      this.isDerivative[i] = inst.segment === 'FNO' || inst.segment === 'CURRENCY' ? 1 : 0;
      this.sigmaPerMs[i] = vol / Math.sqrt(YEAR_MS);
      const factor = 0.25 + 1.75 * ((this.seeds[i]! >>> 8) / 16777216);
      const adv = s.avgDailyVolume ?? d.avgDailyVolume * factor;
      this.lotsPerMs[i] = adv / this.lot[i]! / sessionLengthMs;
      this.circuit[i] = circuit;
      const prev = roundToTick(s.prevClose, inst.tickSize);
      this.prevClose[i] = prev;
      this.fair[i] = prev;
      this.ltp[i] = prev;
      this.open[i] = this.high[i] = this.low[i] = prev;
      this.bid[i] = Math.max(inst.tickSize, prev - inst.tickSize);
      this.ask[i] = prev + inst.tickSize;
      this.oi[i] = this.baseOi[i] = this.isDerivative[i] ? (s.openInterest ?? this.lot[i]! * (1000 + (this.seeds[i]! % 50_000))) : 0;
      this.plainRange(i, prev);
      this.setBand(i);
      const every = Math.max(1, Math.round((s.tickIntervalMs ?? this.options.tickIntervalMs) / slotMs));
      this.intervalMs[i] = every * slotMs;
      this.sigmaStep[i] = this.sigmaPerMs[i]! * Math.sqrt(every * slotMs);
    });
    this.specs.forEach((s, i) => this.link(s, i));
    const resumeAfter = this.options.resumeAfter;
    if (resumeAfter !== undefined) {
      if (!(resumeAfter <= this.sessionOpen)) throw new ConfigError(`market model options: resumeAfter (${resumeAfter}) must not be after sessionOpen (${this.sessionOpen})`, {});
      // Underlyings first: a linked contract settles off its underlying's previous close.
      this.specs.forEach((s, i) => {
        if (s.openState) this.restore(i, s.openState);
      });
      this.specs.forEach((s, i) => {
        if (!s.openState && this.underlyingOf[i]! >= 0) this.settleLinked(i, resumeAfter);
      });
    }
    // Underlyings tick before the options priced off them within a slot: plain instruments first.
    for (const pass of [false, true]) {
      for (let i = 0; i < n; i++) {
        if (this.underlyingOf[i]! >= 0 !== pass) continue;
        const every = Math.round(this.intervalMs[i]! / slotMs);
        let byPhase = groups.get(every);
        if (!byPhase) groups.set(every, (byPhase = Array.from({ length: every }, () => [])));
        byPhase[this.seeds[i]! % every]!.push(i);
      }
    }
    this.openOrder = [...Array(n).keys()].sort((a, b) => Number(this.underlyingOf[a]! >= 0) - Number(this.underlyingOf[b]! >= 0) || a - b);
    this.schedule = [...groups].sort((a, b) => a[0] - b[0]).map(([every, byPhase]) => ({ every, byPhase }));
    this.rng = new RandomStreams(resumeAfter === undefined ? [...this.seeds] : Array.from(this.seeds, (x) => sessionStreamSeed(x, this.sessionOpen)));
    this.captureOpen();
  }

  /** Number of instruments modelled. */
  get size(): number {
    return this.n;
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  /** Instrument ids in the order given. */
  instrumentIds(): string[] {
    return this.specs.map((s) => s.instrument.id);
  }

  /** Open time of the current session. */
  get currentSessionOpen(): number {
    return this.sessionOpen;
  }

  get currentSessionClose(): number {
    return this.sessionOpen + this.sessionLength;
  }

  /** The ticks due up to `ts` (inclusive), in time order (instruments of one slot in a fixed order). */
  advanceTo(ts: number): MarketTick[] {
    const out: MarketTick[] = [];
    this.advanceEach(ts, (t) => out.push(t));
    return out;
  }

  /** Like `advanceTo`, handing each tick to `onTick` instead of building an array. */
  advanceEach(ts: number, onTick: (tick: MarketTick) => void): void {
    const { slotMs } = this.options;
    const last = Math.min(Math.floor((ts - this.sessionOpen) / slotMs), this.slotsPerSession - 1);
    for (let s = this.nextSlot; s <= last; s++) {
      const at = this.sessionOpen + s * slotMs;
      const act = activity(s / this.slotsPerSession);
      const sqrtAct = Math.sqrt(act);
      const silent = this.silent;
      if (s === 0) {
        for (const i of this.openOrder) {
          const t = this.step(i, at, act, sqrtAct);
          if (silent[i] === 0) onTick(t);
        }
        continue;
      }
      for (const g of this.schedule) {
        const list = g.byPhase[s % g.every]!;
        for (let k = 0; k < list.length; k++) {
          const i = list[k]!;
          const t = this.step(i, at, act, sqrtAct);
          if (silent[i] === 0) onTick(t);
        }
      }
    }
    if (last + 1 > this.nextSlot) this.nextSlot = last + 1;
  }

  /**
   * Starts the next session at `sessionOpen` (epoch ms), `lengthMs` long (default the model's
   * session length; special sessions are shorter): today's last price becomes the previous close
   * (a linked contract's: its settlement off the underlying's close), the circuit band and day
   * figures reset, each instrument's random stream restarts for the session, and the first tick
   * of each instrument (at the open) gaps by the overnight move. The state at the open is kept
   * (`openState`).
   */
  startSession(sessionOpen: number, lengthMs: number = this.options.sessionLengthMs): void {
    const previousClose = this.sessionOpen + this.sessionLength;
    if (sessionOpen < previousClose) {
      throw new RangeError(`market model: the next session must open after ${this.sessionOpen + this.sessionLength}, got ${sessionOpen}`);
    }
    if (!(lengthMs > 0)) throw new RangeError(`market model: session length must be positive, got ${lengthMs}`);
    this.sessionOpen = sessionOpen;
    this.sessionLength = lengthMs;
    this.slotsPerSession = Math.ceil(lengthMs / this.options.slotMs);
    this.nextSlot = 0;
    for (let i = 0; i < this.n; i++) {
      const prev = this.ltp[i]!;
      this.prevClose[i] = prev;
      this.fair[i] = prev;
      this.open[i] = this.high[i] = this.low[i] = prev;
      this.volume[i] = 0;
      this.tickCount[i] = 0;
      this.offset[i] = 0;
      if (prev > this.week52High[i]!) this.week52High[i] = prev;
      if (prev < this.week52Low[i]!) this.week52Low[i] = prev;
      this.setBand(i);
    }
    // A linked contract reopens where its underlying closed (not at its own last print, which
    // depends on when it last ticked), so a model started at this session without the ones
    // before (`resumeAfter`) opens it at the same price. Each stream restarts for the session.
    for (let i = 0; i < this.n; i++) {
      if (this.underlyingOf[i]! >= 0) this.settleLinked(i, previousClose);
      this.rng.reseed(i, sessionStreamSeed(this.seeds[i]!, sessionOpen));
    }
    this.captureOpen();
  }

  /** Where `id` stood at the current session's open (for a model started at this session: `MarketModelOptions.resumeAfter`). */
  openState(id: string): InstrumentOpenState {
    const i = this.mustIndex(id);
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

  /**
   * Forces an instrument's price (the simulator's POST /sim/prices), rounded to its tick and held
   * inside the circuit band. Returns the resulting tick (mode `open`: a jump, so resting orders it
   * crosses fill at this price); the path continues from it.
   */
  setPrice(id: string, price: Paise, ts: number): MarketTick {
    const i = this.mustIndex(id);
    const tick = this.tick[i]!;
    let p = roundToTick(price, tick);
    if (p > this.upper[i]!) p = this.upper[i]!;
    if (p < this.lower[i]!) p = this.lower[i]!;
    this.fair[i] = p;
    this.ltp[i] = p;
    const u = this.underlyingOf[i]!;
    if (u >= 0) {
      this.spotAtTick[i] = this.fair[u]!;
      this.offset[i] = p - this.linkedValue(i, this.fair[u]!, ts);
    }
    if (this.tickCount[i] === 0) this.open[i] = this.high[i] = this.low[i] = p;
    if (p > this.high[i]!) this.high[i] = p;
    if (p < this.low[i]!) this.low[i] = p;
    this.bid[i] = Math.max(tick, p - tick);
    this.ask[i] = p + tick;
    this.tickCount[i] = this.tickCount[i]! + 1;
    this.lastTs[i] = ts;
    return this.tickOf(i, ts, 'open');
  }

  /** The latest tick-shaped state of an instrument (for `/market/quotes/ltp` and snapshots). */
  last(id: string): MarketTick {
    const i = this.mustIndex(id);
    return this.tickOf(i, this.lastTs[i]!, undefined);
  }

  lastPrice(id: string): Paise | undefined {
    const i = this.index.get(id);
    return i === undefined ? undefined : this.ltp[i];
  }

  /**
   * A linked contract's last price with the underlying's fair value (paise, unrounded) and the time
   * it was made at: the pair its implied volatility is read from (undefined when not linked).
   */
  linkedMark(id: string): LinkedMark | undefined {
    const i = this.index.get(id);
    if (i === undefined || this.underlyingOf[i]! < 0) return undefined;
    return { ltp: this.ltp[i]!, spot: this.spotAtTick[i]!, ts: this.lastTs[i]! };
  }

  /** 5-level depth around the current top of book; deterministic for a given state. */
  depth(id: string): Depth {
    const i = this.mustIndex(id);
    return this.depthOf(i);
  }

  /** Full quote (spec 2.4). */
  quote(id: string): MarketQuote {
    const i = this.mustIndex(id);
    const depth = this.depthOf(i);
    const ltp = this.ltp[i]!;
    const prev = this.prevClose[i]!;
    const sum = (lv: readonly BookLevel[]): number => lv.reduce((s, l) => s + l.qty, 0);
    // The whole book holds far more than the top five levels show; scale as brokers' totals do.
    const totalBuyQty = sum(depth.bids) * 8;
    const totalSellQty = sum(depth.asks) * 8;
    return {
      instrument: id,
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

  // ------------------------------------------------------------------------------------------

  private step(i: number, ts: number, act: number, sqrtAct: number): MarketTick {
    const rng = this.rng;
    const tick = this.tick[i]!;
    const first = this.tickCount[i] === 0;
    const dt = ts - this.lastTs[i]!;
    const interval = this.intervalMs[i]!;
    let f = this.fair[i]!;
    const u = this.underlyingOf[i]!;
    if (u >= 0) {
      const spot = this.fair[u]!;
      this.spotAtTick[i] = spot;
      f = this.linkedValue(i, spot, ts) + this.offset[i]!;
    } else if (first) {
      const daySigma = this.sigmaPerMs[i]! * Math.sqrt(this.options.sessionLengthMs);
      f *= Math.exp(daySigma * this.options.overnightGapFactor * rng.normal(i));
    } else {
      const sigma = dt === interval ? this.sigmaStep[i]! : this.sigmaPerMs[i]! * Math.sqrt(dt > 0 ? Math.min(dt, this.options.sessionLengthMs) : interval);
      const x = sigma * sqrtAct * normalFromBits(rng.bits(i));
      // exp(x) to third order: |x| is ~1e-3 per tick, so the error (x^4/24) is far below a paisa.
      f *= x > -0.05 && x < 0.05 ? 1 + x * (1 + x * (0.5 + x / 6)) : Math.exp(x);
    }
    const up = this.upper[i]!;
    const lo = this.lower[i]!;
    if (f > up) f = up;
    else if (f < lo) f = lo;
    this.fair[i] = f;
    let p = Math.round(f / tick) * tick;
    if (p > up) p = up;
    else if (p < lo) p = lo;
    const lot = this.lot[i]!;
    const meanLots = this.lotsPerMs[i]! * (first ? interval : dt > 0 ? dt : interval) * act;
    const lots = meanLots > 0 ? Math.max(1, Math.round(exponentialFromBits(rng.bits(i)) * meanLots)) : 0;
    const qty = lots * lot;
    // One 32-bit draw decides the side of the print (bit 0), the spread (one tick, or two about a
    // quarter of the time: bits 1-2) and the top-of-book sizes (two 14-bit fields).
    const r = rng.bits(i);
    const spread = (r & 6) === 0 ? 2 * tick : tick;
    let bid: number;
    let ask: number;
    if ((r & 1) === 0) {
      ask = p;
      bid = p - spread > tick ? p - spread : tick;
    } else {
      bid = p;
      ask = p + spread;
    }
    const size = Math.max(1, Math.round(meanLots * 2)) * 3;
    const bidQty = lot * (1 + Math.floor((((r >>> 4) & 0x3fff) / 16384) * size));
    const askQty = lot * (1 + Math.floor((((r >>> 18) & 0x3fff) / 16384) * size));
    this.bid[i] = bid;
    this.ask[i] = ask;
    this.bidQty[i] = bidQty;
    this.askQty[i] = askQty;
    this.ltp[i] = p;
    let high: number;
    let low: number;
    if (first) {
      this.open[i] = high = low = p;
    } else {
      high = this.high[i]!;
      low = this.low[i]!;
      if (p > high) high = p;
      if (p < low) low = p;
    }
    this.high[i] = high;
    this.low[i] = low;
    const volume = this.volume[i]! + qty;
    this.volume[i] = volume;
    this.lastQty[i] = qty;
    let oi: number | undefined;
    if (this.isDerivative[i]) {
      const next = this.oi[i]! + lot * Math.round(normalFromBits(rng.bits(i)) * Math.sqrt(lots));
      oi = this.oi[i] = next > lot ? next : lot;
    }
    this.tickCount[i] = this.tickCount[i]! + 1;
    this.lastTs[i] = ts;
    // Built from locals (same shape as tickOf): the hot path reads no state back.
    return {
      type: 'tick',
      ts,
      instrument: this.ids[i]!,
      ltp: p,
      volume,
      bid,
      ask,
      bidQty,
      askQty,
      open: this.open[i]!,
      high,
      low,
      close: this.prevClose[i]!,
      oi,
      ltt: ts,
      upperCircuit: up,
      lowerCircuit: lo,
      lastQty: qty,
      mode: first ? 'open' : undefined,
    };
  }

  private tickOf(i: number, ts: number, mode: 'open' | undefined): MarketTick {
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

  private depthOf(i: number): Depth {
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
    const bids: BookLevel[] = [];
    const asks: BookLevel[] = [];
    let bp = this.bid[i]!;
    let ap = this.ask[i]!;
    for (let k = 0; k < DEPTH_LEVELS; k++) {
      const bq = k === 0 ? this.bidQty[i]! : lot * Math.max(1, Math.round((unit / lot) * (0.5 + 1.5 * next())));
      const aq = k === 0 ? this.askQty[i]! : lot * Math.max(1, Math.round((unit / lot) * (0.5 + 1.5 * next())));
      if (bp >= this.lower[i]! && bp > 0) bids.push({ price: bp, qty: bq });
      if (ap <= this.upper[i]!) asks.push({ price: ap, qty: aq });
      const gap = next() < 0.7 ? 1 : 2;
      bp -= gap * tick;
      ap += (next() < 0.7 ? 1 : 2) * tick;
    }
    return { bids, asks };
  }

  /** Wires a linked option or future to its underlying (an option without a valuer takes the model value as its previous close). */
  private link(s: MarketInstrumentSpec, i: number): void {
    if (s.underlying === undefined) return;
    const inst = s.instrument;
    const where = `market model: ${inst.id}`;
    const future = (inst.kind === 'FUTIDX' || inst.kind === 'FUTSTK') && s.valuer !== undefined;
    if (!future && ((inst.kind !== 'OPTIDX' && inst.kind !== 'OPTSTK') || inst.strike === undefined || inst.optionType === undefined || inst.expiry === undefined)) {
      throw new ConfigError(`${where}: only an option with strike, option type and expiry, or a future with a valuer, can have an underlying`, {});
    }
    const u = this.index.get(s.underlying);
    if (u === undefined) throw new ConfigError(`${where}: underlying ${s.underlying} is not in the model`, {});
    if (this.specs[u]!.underlying !== undefined) throw new ConfigError(`${where}: underlying ${s.underlying} is itself a linked derivative`, {});
    if (future) {
      // A future keeps its previous close, circuit band and 52-week range; only its path follows the underlying.
      this.underlyingOf[i] = u;
      this.valuers[i] = s.valuer;
      this.spotAtTick[i] = this.prevClose[u]!;
      return;
    }
    if (inst.strike === undefined || inst.optionType === undefined || inst.expiry === undefined) return; // checked above (for the compiler)
    const iv = s.impliedVol ?? (inst.kind === 'OPTIDX' ? 0.15 : 0.3);
    if (!(iv > 0 && iv < 5)) throw new ConfigError(`${where}: impliedVol must be in (0, 5), got ${iv}`, {});
    this.underlyingOf[i] = u;
    this.strike[i] = inst.strike;
    this.isCall[i] = inst.optionType === 'CE' ? 1 : 0;
    this.iv[i] = iv;
    this.expiryTs[i] = istDateTime(inst.expiry, '15:30');
    this.valuers[i] = s.valuer;
    this.spotAtTick[i] = this.prevClose[u]!;
    // A valued option keeps the previous close it was given (yesterday's candles end there).
    const prev = s.valuer ? this.prevClose[i]! : Math.max(inst.tickSize, roundToTick(this.linkedValue(i, this.prevClose[u]!, this.sessionOpen), inst.tickSize));
    this.prevClose[i] = this.fair[i] = this.ltp[i] = this.open[i] = this.high[i] = this.low[i] = prev;
    this.bid[i] = Math.max(inst.tickSize, prev - inst.tickSize);
    this.ask[i] = prev + inst.tickSize;
    this.optionRange(i, prev);
    this.setBand(i);
  }

  /** A 52-week range around `prev` drawn from the instrument's seed (no history to take it from). */
  private plainRange(i: number, prev: number): void {
    const tick = this.tick[i]!;
    const w = 0.15 + 0.35 * ((mix32(this.seeds[i]!) >>> 8) / 16777216);
    this.week52High[i] = roundToTick(prev * (1 + w), tick);
    this.week52Low[i] = Math.max(tick, roundToTick(prev * (1 - w / 1.5), tick));
  }

  /** An option's (wider) range: options move by multiples, not percent. */
  private optionRange(i: number, prev: number): void {
    const tick = this.tick[i]!;
    const w = 0.5 + ((mix32(this.seeds[i]!) >>> 8) / 16777216);
    this.week52High[i] = roundToTick(prev * (1 + 2 * w), tick);
    this.week52Low[i] = Math.max(tick, roundToTick(prev * (1 - w / 1.6), tick));
  }

  /**
   * A linked contract at a session open: its previous close is its model value at the
   * underlying's previous close at `closeTs` (a settlement price: a function of the underlying's
   * path only), open interest back at its opening figure, range and band around that close.
   */
  private settleLinked(i: number, closeTs: number): void {
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

  /** Puts instrument `i` where `st` says it stood at the open (the day figures start from its previous close). */
  private restore(i: number, st: InstrumentOpenState): void {
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

  private captureOpen(): void {
    const a = {} as Record<OpenField, Float64Array>;
    for (const f of OPEN_FIELDS) a[f] = this[f].slice();
    this.atOpen = a;
  }

  /** Model value of a linked derivative at underlying price `spot` and time `ts`; never below one tick. */
  private linkedValue(i: number, spot: number, ts: number): number {
    const valuer = this.valuers[i];
    if (valuer) return Math.max(this.tick[i]!, valuer(spot, ts));
    const years = Math.max(this.expiryTs[i]! - ts, MINUTE_MS) / (365 * 24 * 60 * MINUTE_MS);
    return Math.max(this.tick[i]!, blackScholes(this.isCall[i] === 1, spot, this.strike[i]!, years, this.iv[i]!));
  }

  private setBand(i: number): void {
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

  private mustIndex(id: string): number {
    const i = this.index.get(id);
    if (i === undefined) throw new UnknownInstrumentError(`market model: no instrument ${id}`, { instrument: id });
    return i;
  }
}

interface KindDefaults {
  readonly volatility: number;
  readonly circuitPct: number;
  readonly avgDailyVolume: number;
}

function defaultsFor(i: Instrument): KindDefaults {
  switch (i.kind) {
    case 'FUTIDX':
      return { volatility: 0.15, circuitPct: 0.1, avgDailyVolume: i.lotSize * 50_000 };
    case 'FUTSTK':
      return { volatility: 0.3, circuitPct: 0.1, avgDailyVolume: i.lotSize * 5_000 };
    case 'OPTIDX':
      return { volatility: 0.9, circuitPct: 0.5, avgDailyVolume: i.lotSize * 100_000 };
    case 'OPTSTK':
      return { volatility: 0.9, circuitPct: 0.5, avgDailyVolume: i.lotSize * 2_000 };
    case 'INDEX':
      // Indices do not trade: no volume; no circuit of their own (a wide band keeps the maths uniform).
      return { volatility: 0.14, circuitPct: 0.3, avgDailyVolume: 0 };
    default:
      return { volatility: 0.3, circuitPct: 0.2, avgDailyVolume: 2_000_000 };
  }
}
