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
 * State is kept in typed arrays (struct of arrays, `MarketColumns` in market-columns.ts, which
 * also makes ticks, quotes, depth, bands and linked values from it): the model must play a
 * 3,000-instrument day in seconds. This file is the process: construction from the specs, the
 * tick schedule, the price step, sessions and price overrides.
 */
import { z } from 'zod';
import { ConfigError, TarangError } from '../../../core/errors.js';
import type { Instrument } from '../../../core/instruments.js';
import { roundToTick, type Paise } from '../../../core/money.js';
import { MINUTE_MS, istDateTime } from '../../../core/time.js';
import type { Depth } from '../matching/types.js';
import { activity } from './activity.js';
import { MarketColumns } from './market-columns.js';
import { RandomStreams, exponentialFromBits, hashSeed, normalFromBits, sessionStreamSeed } from './rng.js';
import type { MarketInstrumentSpec, MarketQuote, MarketTick, LinkedMark, InstrumentOpenState } from './types.js';
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

/** A market model call named an instrument the model does not hold. */
export class UnknownInstrumentError extends TarangError {
  readonly code = 'MARKET_UNKNOWN_INSTRUMENT' as const;
}

export class MarketModel {
  readonly options: z.output<typeof MarketModelOptionsSchema>;
  private readonly specs: readonly MarketInstrumentSpec[];
  private readonly index = new Map<string, number>();
  private readonly rng: RandomStreams;
  /** Per-instrument state (struct of arrays). */
  private readonly c: MarketColumns;
  /** slots between ticks -> phase -> instruments. */
  private readonly schedule: Array<{ every: number; byPhase: number[][] }>;
  private readonly openOrder: number[];
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
    const c = (this.c = new MarketColumns(this.specs.map((x) => x.instrument.id)));
    const n = c.n;
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
      c.seeds[i] = hashSeed(inst.id, this.options.seed);
      c.silent[i] = s.silent === true ? 1 : 0;
      c.tick[i] = inst.tickSize;
      c.lot[i] = Math.max(1, inst.lotSize);
      c.isDerivative[i] = inst.segment === 'FNO' || inst.segment === 'CURRENCY' ? 1 : 0;
      c.sigmaPerMs[i] = vol / Math.sqrt(YEAR_MS);
      const factor = 0.25 + 1.75 * ((c.seeds[i]! >>> 8) / 16777216);
      const adv = s.avgDailyVolume ?? d.avgDailyVolume * factor;
      c.lotsPerMs[i] = adv / c.lot[i]! / sessionLengthMs;
      c.circuit[i] = circuit;
      const prev = roundToTick(s.prevClose, inst.tickSize);
      c.prevClose[i] = prev;
      c.fair[i] = prev;
      c.ltp[i] = prev;
      c.open[i] = c.high[i] = c.low[i] = prev;
      c.bid[i] = Math.max(inst.tickSize, prev - inst.tickSize);
      c.ask[i] = prev + inst.tickSize;
      c.oi[i] = c.baseOi[i] = c.isDerivative[i] ? (s.openInterest ?? c.lot[i]! * (1000 + (c.seeds[i]! % 50_000))) : 0;
      c.plainRange(i, prev);
      c.setBand(i);
      const every = Math.max(1, Math.round((s.tickIntervalMs ?? this.options.tickIntervalMs) / slotMs));
      c.intervalMs[i] = every * slotMs;
      c.sigmaStep[i] = c.sigmaPerMs[i]! * Math.sqrt(every * slotMs);
    });
    this.specs.forEach((s, i) => this.link(s, i));
    const resumeAfter = this.options.resumeAfter;
    if (resumeAfter !== undefined) {
      if (!(resumeAfter <= this.sessionOpen)) throw new ConfigError(`market model options: resumeAfter (${resumeAfter}) must not be after sessionOpen (${this.sessionOpen})`, {});
      // Underlyings first: a linked contract settles off its underlying's previous close.
      this.specs.forEach((s, i) => {
        if (s.openState) c.restore(i, s.openState);
      });
      this.specs.forEach((s, i) => {
        if (!s.openState && c.underlyingOf[i]! >= 0) c.settleLinked(i, resumeAfter);
      });
    }
    // Underlyings tick before the options priced off them within a slot: plain instruments first.
    for (const pass of [false, true]) {
      for (let i = 0; i < n; i++) {
        if (c.underlyingOf[i]! >= 0 !== pass) continue;
        const every = Math.round(c.intervalMs[i]! / slotMs);
        let byPhase = groups.get(every);
        if (!byPhase) groups.set(every, (byPhase = Array.from({ length: every }, () => [])));
        byPhase[c.seeds[i]! % every]!.push(i);
      }
    }
    this.openOrder = [...Array(n).keys()].sort((a, b) => Number(c.underlyingOf[a]! >= 0) - Number(c.underlyingOf[b]! >= 0) || a - b);
    this.schedule = [...groups].sort((a, b) => a[0] - b[0]).map(([every, byPhase]) => ({ every, byPhase }));
    this.rng = new RandomStreams(resumeAfter === undefined ? [...c.seeds] : Array.from(c.seeds, (x) => sessionStreamSeed(x, this.sessionOpen)));
    c.captureOpen();
  }

  /** Number of instruments modelled. */
  get size(): number {
    return this.c.n;
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
    const c = this.c;
    const { slotMs } = this.options;
    const last = Math.min(Math.floor((ts - this.sessionOpen) / slotMs), this.slotsPerSession - 1);
    for (let s = this.nextSlot; s <= last; s++) {
      const at = this.sessionOpen + s * slotMs;
      const act = activity(s / this.slotsPerSession);
      const sqrtAct = Math.sqrt(act);
      const silent = c.silent;
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
    const c = this.c;
    const previousClose = this.sessionOpen + this.sessionLength;
    if (sessionOpen < previousClose) {
      throw new RangeError(`market model: the next session must open after ${this.sessionOpen + this.sessionLength}, got ${sessionOpen}`);
    }
    if (!(lengthMs > 0)) throw new RangeError(`market model: session length must be positive, got ${lengthMs}`);
    this.sessionOpen = sessionOpen;
    this.sessionLength = lengthMs;
    this.slotsPerSession = Math.ceil(lengthMs / this.options.slotMs);
    this.nextSlot = 0;
    for (let i = 0; i < c.n; i++) {
      const prev = c.ltp[i]!;
      c.prevClose[i] = prev;
      c.fair[i] = prev;
      c.open[i] = c.high[i] = c.low[i] = prev;
      c.volume[i] = 0;
      c.tickCount[i] = 0;
      c.offset[i] = 0;
      if (prev > c.week52High[i]!) c.week52High[i] = prev;
      if (prev < c.week52Low[i]!) c.week52Low[i] = prev;
      c.setBand(i);
    }
    // A linked contract reopens where its underlying closed (not at its own last print, which
    // depends on when it last ticked), so a model started at this session without the ones
    // before (`resumeAfter`) opens it at the same price. Each stream restarts for the session.
    for (let i = 0; i < c.n; i++) {
      if (c.underlyingOf[i]! >= 0) c.settleLinked(i, previousClose);
      this.rng.reseed(i, sessionStreamSeed(c.seeds[i]!, sessionOpen));
    }
    c.captureOpen();
  }

  /** Where `id` stood at the current session's open (for a model started at this session: `MarketModelOptions.resumeAfter`). */
  openState(id: string): InstrumentOpenState {
    return this.c.openStateOf(this.mustIndex(id));
  }

  /**
   * Forces an instrument's price (the simulator's POST /sim/prices), rounded to its tick and held
   * inside the circuit band. Returns the resulting tick (mode `open`: a jump, so resting orders it
   * crosses fill at this price); the path continues from it.
   */
  setPrice(id: string, price: Paise, ts: number): MarketTick {
    const c = this.c;
    const i = this.mustIndex(id);
    const tick = c.tick[i]!;
    let p = roundToTick(price, tick);
    if (p > c.upper[i]!) p = c.upper[i]!;
    if (p < c.lower[i]!) p = c.lower[i]!;
    c.fair[i] = p;
    c.ltp[i] = p;
    const u = c.underlyingOf[i]!;
    if (u >= 0) {
      c.spotAtTick[i] = c.fair[u]!;
      c.offset[i] = p - c.linkedValue(i, c.fair[u]!, ts);
    }
    if (c.tickCount[i] === 0) c.open[i] = c.high[i] = c.low[i] = p;
    if (p > c.high[i]!) c.high[i] = p;
    if (p < c.low[i]!) c.low[i] = p;
    c.bid[i] = Math.max(tick, p - tick);
    c.ask[i] = p + tick;
    c.tickCount[i] = c.tickCount[i]! + 1;
    c.lastTs[i] = ts;
    return c.tickOf(i, ts, 'open');
  }

  /** The latest tick-shaped state of an instrument (for `/market/quotes/ltp` and snapshots). */
  last(id: string): MarketTick {
    const c = this.c;
    const i = this.mustIndex(id);
    return c.tickOf(i, c.lastTs[i]!, undefined);
  }

  lastPrice(id: string): Paise | undefined {
    const c = this.c;
    const i = this.index.get(id);
    return i === undefined ? undefined : c.ltp[i];
  }

  /**
   * A linked contract's last price with the underlying's fair value (paise, unrounded) and the time
   * it was made at: the pair its implied volatility is read from (undefined when not linked).
   */
  linkedMark(id: string): LinkedMark | undefined {
    const c = this.c;
    const i = this.index.get(id);
    if (i === undefined || c.underlyingOf[i]! < 0) return undefined;
    return { ltp: c.ltp[i]!, spot: c.spotAtTick[i]!, ts: c.lastTs[i]! };
  }

  /** 5-level depth around the current top of book; deterministic for a given state. */
  depth(id: string): Depth {
    return this.c.depthOf(this.mustIndex(id));
  }

  /** Full quote (spec 2.4). */
  quote(id: string): MarketQuote {
    return this.c.quoteOf(this.mustIndex(id));
  }

  /** The full quote's book totals alone (a full-mode tick carries them), without building the quote. */
  bookTotals(id: string): { readonly buy: number; readonly sell: number } {
    return this.c.bookTotals(this.mustIndex(id));
  }

  // ------------------------------------------------------------------------------------------

  private step(i: number, ts: number, act: number, sqrtAct: number): MarketTick {
    const c = this.c;
    const rng = this.rng;
    const tick = c.tick[i]!;
    const first = c.tickCount[i] === 0;
    const dt = ts - c.lastTs[i]!;
    const interval = c.intervalMs[i]!;
    let f = c.fair[i]!;
    const u = c.underlyingOf[i]!;
    if (u >= 0) {
      const spot = c.fair[u]!;
      c.spotAtTick[i] = spot;
      f = c.linkedValue(i, spot, ts) + c.offset[i]!;
    } else if (first) {
      const daySigma = c.sigmaPerMs[i]! * Math.sqrt(this.options.sessionLengthMs);
      f *= Math.exp(daySigma * this.options.overnightGapFactor * rng.normal(i));
    } else {
      const sigma = dt === interval ? c.sigmaStep[i]! : c.sigmaPerMs[i]! * Math.sqrt(dt > 0 ? Math.min(dt, this.options.sessionLengthMs) : interval);
      const x = sigma * sqrtAct * normalFromBits(rng.bits(i));
      // exp(x) to third order: |x| is ~1e-3 per tick, so the error (x^4/24) is far below a paisa.
      f *= x > -0.05 && x < 0.05 ? 1 + x * (1 + x * (0.5 + x / 6)) : Math.exp(x);
    }
    const up = c.upper[i]!;
    const lo = c.lower[i]!;
    if (f > up) f = up;
    else if (f < lo) f = lo;
    c.fair[i] = f;
    let p = Math.round(f / tick) * tick;
    if (p > up) p = up;
    else if (p < lo) p = lo;
    const lot = c.lot[i]!;
    const meanLots = c.lotsPerMs[i]! * (first ? interval : dt > 0 ? dt : interval) * act;
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
    c.bid[i] = bid;
    c.ask[i] = ask;
    c.bidQty[i] = bidQty;
    c.askQty[i] = askQty;
    c.ltp[i] = p;
    let high: number;
    let low: number;
    if (first) {
      c.open[i] = high = low = p;
    } else {
      high = c.high[i]!;
      low = c.low[i]!;
      if (p > high) high = p;
      if (p < low) low = p;
    }
    c.high[i] = high;
    c.low[i] = low;
    const volume = c.volume[i]! + qty;
    c.volume[i] = volume;
    c.lastQty[i] = qty;
    let oi: number | undefined;
    if (c.isDerivative[i]) {
      const next = c.oi[i]! + lot * Math.round(normalFromBits(rng.bits(i)) * Math.sqrt(lots));
      oi = c.oi[i] = next > lot ? next : lot;
    }
    c.tickCount[i] = c.tickCount[i]! + 1;
    c.lastTs[i] = ts;
    // Built from locals (same shape as tickOf): the hot path reads no state back.
    return {
      type: 'tick',
      ts,
      instrument: c.ids[i]!,
      ltp: p,
      volume,
      bid,
      ask,
      bidQty,
      askQty,
      open: c.open[i]!,
      high,
      low,
      close: c.prevClose[i]!,
      oi,
      ltt: ts,
      upperCircuit: up,
      lowerCircuit: lo,
      lastQty: qty,
      mode: first ? 'open' : undefined,
    };
  }



  /** Wires a linked option or future to its underlying (an option without a valuer takes the model value as its previous close). */
  private link(s: MarketInstrumentSpec, i: number): void {
    const c = this.c;
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
      c.underlyingOf[i] = u;
      c.valuers[i] = s.valuer;
      c.spotAtTick[i] = c.prevClose[u]!;
      return;
    }
    if (inst.strike === undefined || inst.optionType === undefined || inst.expiry === undefined) return; // checked above (for the compiler)
    const iv = s.impliedVol ?? (inst.kind === 'OPTIDX' ? 0.15 : 0.3);
    if (!(iv > 0 && iv < 5)) throw new ConfigError(`${where}: impliedVol must be in (0, 5), got ${iv}`, {});
    c.underlyingOf[i] = u;
    c.strike[i] = inst.strike;
    c.isCall[i] = inst.optionType === 'CE' ? 1 : 0;
    c.iv[i] = iv;
    c.expiryTs[i] = istDateTime(inst.expiry, '15:30');
    c.valuers[i] = s.valuer;
    c.spotAtTick[i] = c.prevClose[u]!;
    // A valued option keeps the previous close it was given (yesterday's candles end there).
    const prev = s.valuer ? c.prevClose[i]! : Math.max(inst.tickSize, roundToTick(c.linkedValue(i, c.prevClose[u]!, this.sessionOpen), inst.tickSize));
    c.prevClose[i] = c.fair[i] = c.ltp[i] = c.open[i] = c.high[i] = c.low[i] = prev;
    c.bid[i] = Math.max(inst.tickSize, prev - inst.tickSize);
    c.ask[i] = prev + inst.tickSize;
    c.optionRange(i, prev);
    c.setBand(i);
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
