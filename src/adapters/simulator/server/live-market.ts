/**
 * The simulator's running market: price paths driven from the simulator's clock, feeding each
 * tick to the matching engine and then to tick listeners (the WebSocket hub), and rolling
 * sessions on the NSE calendar (DAY orders expire at the close; the next open starts a new day
 * for the model and the engine).
 *
 * Lazy: an instrument is modelled from the first time anyone looks at it (a subscribe, a quote,
 * an order, a candle request: `activate`), not up front for a universe of ~68,000 of which a run
 * touches a handful. Each activation builds a market model over the newly touched instruments,
 * started at the current session's open (where the models already holding them stood then; a
 * contract priced off an underlying at its settlement off the underlying's close) and caught up
 * to now. Every instrument draws from its own random stream, restarted each session from the
 * seed, its id and the session, so its path is the same whenever, and alongside whichever
 * others, it was first touched, and touching it costs today's session so far, not the run's age
 * (only an instrument nobody has modelled that is not priced off another is played from the
 * first session: its own path, no valuer). Catch-up ticks of today's session go to `onCatchUp` listeners (the minute
 * recorder, so today's candles are the path the quotes describe), never to the engine or clients.
 * Instruments given as `instruments` are modelled from the start (benchmarks).
 *
 * The engine gets every tick only of the instruments it is engaged in (an order was placed on
 * them: working orders and positions need every move); any other instrument's book is brought
 * up to date right before its first order (`engage`).
 *
 * Options tick less often than cash and futures by default: few of them trade. A contract the
 * venue can value (`derivativeLink`) is priced off its underlying's path: an option on the
 * simulator's volatility surface, so its quotes, the chain's implied volatilities and put-call
 * parity agree; a future at cost of carry, so the basis stays where the rate puts it. The
 * underlying then sits in the contract's model too, as a silent copy when it is handed out from
 * another model (same seed and instrument, same path); forced prices (`setPrice`) are logged and
 * replayed so such copies, and models rebuilt by a merge, stay on the path clients saw.
 *
 * Why one file over 500 lines: it is one job, the lazily built market, and its parts (activation,
 * replay to the open and catch-up, the forced-price log, merging small models, dropping expired
 * contracts, the per-step session roll) all keep one set of invariants over the same private state
 * (the held models, which model holds each code, the forced prices, the session). Split, each part
 * would need that state handed over and the invariants would be stated nowhere whole.
 */
import { squareOffsIn } from '../../../risk/rules/square-off.js';
import type { MarketCalendar } from '../../../core/calendar.js';
import type { Clock, TimerHandle } from '../../../core/clock.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Logger } from '../../../core/log.js';
import type { Paise } from '../../../core/money.js';
import { istDate } from '../../../core/time.js';
import { MarketModel, syntheticSpec, type MarketInstrumentSpec, type MarketQuote, type MarketTick, type LinkedMark, type ContractValuer, type InstrumentOpenState } from '../market/index.js';
import type { Depth } from '../matching/types.js';
import type { MatchingEngine } from '../matching/index.js';

export interface TickIntervals {
  /** Cash equities and indices. Default 2,000 ms. */
  readonly cash?: number;
  /** Futures. Default 2,000 ms. */
  readonly futures?: number;
  /** Options. Default 20,000 ms. */
  readonly options?: number;
}

export interface LiveMarketOptions {
  readonly clock: Clock;
  readonly calendar: MarketCalendar;
  /** Modelled from the start. */
  readonly instruments?: readonly Instrument[];
  /** Instruments that may be modelled on first touch (`activate`). */
  readonly lookup?: (scripCode: string) => Instrument | undefined;
  readonly seed: number;
  readonly log: Logger;
  /** Previous close of an instrument for the session on `date`, when a data source knows it. */
  readonly previousClose?: (scripCode: string, date: string) => Paise | undefined;
  readonly tickIntervals?: TickIntervals;
  /** How often the clock drives the model (market ms). Default 250. */
  readonly pumpMs?: number;
  /** How an option or future is priced off its underlying; undefined (or no answer): it follows a path of its own. */
  readonly derivativeLink?: (contract: Instrument) => DerivativeLink | undefined;
}

export type LiveTickListener = (tick: MarketTick) => void;

/** How an option or future is priced: off `underlying` (a scrip code) by `valuer`. */
export interface DerivativeLink {
  readonly underlying: string;
  readonly valuer: ContractValuer;
}

/** Forced prices kept per instrument for replays (older ones are dropped: a replay from before them is then approximate). */
const MAX_FORCED_PER_CODE = 1000;

/** A model of fewer instruments is small: small ones are merged when more than `MAX_SMALL_MODELS` stand at one slot. */
const SMALL_MODEL = 64;
const MAX_SMALL_MODELS = 8;

/** Codes held for the next activation (a subscribe frame is at most 1,000). */
const MAX_EXPECTED = 5000;

/** How far a model has been played: a session (index into the opens) and the time within it (undefined: not yet open). */
interface Reach {
  readonly session: number;
  readonly ts: number | undefined;
}

interface Held {
  readonly model: MarketModel;
  readonly specs: readonly MarketInstrumentSpec[];
  /** Instruments held as silent copies (handed out from another model). */
  readonly shadows: ReadonlySet<string>;
  reach: Reach;
  /** A price was forced on one of its instruments: kept out of merges (the forced-price log is bounded). */
  pinned: boolean;
}

export class LiveMarket {
  private engine: MatchingEngine | undefined;
  private readonly listeners: LiveTickListener[] = [];
  private readonly dropListeners: ((codes: readonly string[]) => void)[] = [];
  private readonly catchUpListeners: LiveTickListener[] = [];
  private readonly clock: Clock;
  private readonly calendar: MarketCalendar;
  private readonly log: Logger;
  private readonly seed: number;
  private readonly lookup: ((scripCode: string) => Instrument | undefined) | undefined;
  private readonly previousClose: ((scripCode: string, date: string) => Paise | undefined) | undefined;
  private readonly intervals: Required<TickIntervals>;
  private readonly pumpMs: number;
  private readonly derivativeLink: ((contract: Instrument) => DerivativeLink | undefined) | undefined;
  /** Prices forced on each instrument, in time order, for replays. */
  private readonly forced = new Map<string, { readonly ts: number; readonly price: Paise }[]>();
  private pump: TimerHandle | undefined;
  /** Models, one per activation (merged at the next step), and which holds each instrument. */
  private models: Held[] = [];
  private readonly modelOf = new Map<string, Held>();
  /** Codes looked up and likely touched next (`expect`): modelled together at the next activation. */
  private readonly expected = new Set<string>();
  /** Models built since the last step: same-slot ones are merged into one at the next step. */
  private pending: Held[] = [];
  private readonly instruments = new Map<string, Instrument>();
  /** The spec each handed-out instrument was modelled with: a silent copy is made from the same one. */
  private readonly specById = new Map<string, MarketInstrumentSpec>();
  /** The first session (every model starts there) and the opens of every session since. */
  private readonly firstDate: string;
  private readonly sessionLengthMs: number;
  private readonly opens: number[];
  /** The current session has been closed (DAY orders expired). */
  private closed = false;
  private engineOpen = false;
  private readonly deliver = (t: MarketTick): void => this.emit(t);
  /** Instruments whose every tick the engine sees. */
  private readonly engaged = new Set<string>();

  constructor(options: LiveMarketOptions) {
    this.clock = options.clock;
    this.calendar = options.calendar;
    this.log = options.log;
    this.seed = options.seed;
    this.lookup = options.lookup;
    this.previousClose = options.previousClose;
    this.intervals = { cash: 2000, futures: 2000, options: 20_000, ...options.tickIntervals };
    this.pumpMs = options.pumpMs ?? 250;
    this.derivativeLink = options.derivativeLink;
    const session = this.calendar.currentOrNextSession(this.clock.now());
    this.firstDate = session.date;
    this.sessionLengthMs = session.close - session.open;
    this.opens = [session.open];
    if (options.instruments && options.instruments.length > 0) this.addModel(options.instruments);
    this.log.info({ instruments: this.modelOf.size, lazy: this.lookup !== undefined, session: session.date }, 'market ready');
  }

  /** Open time of the current session. */
  get currentSessionOpen(): number {
    return this.opens[this.opens.length - 1]!;
  }

  /** Market models held (instruments touched at different times may sit in different ones). */
  get modelCount(): number {
    return this.models.length;
  }

  /** Instruments modelled so far. */
  get size(): number {
    return this.modelOf.size;
  }

  /** Starts driving the market from the clock; ticks go to `engine` first, then to listeners. */
  start(engine: MatchingEngine): void {
    this.engine = engine;
    this.engineOpen = engine.isSessionOpen();
    this.step();
    this.pump = this.clock.setInterval(() => this.step(), this.pumpMs);
  }

  /** True when `code` is modelled (or can be, on first touch). */
  knows(code: string): boolean {
    return this.modelOf.has(code) || this.lookup?.(code) !== undefined;
  }

  /** The instrument of a modelled code (it may have left the universe since: an expired contract). */
  instrumentOf(code: string): Instrument | undefined {
    return this.instruments.get(code);
  }

  isActive(code: string): boolean {
    return this.modelOf.has(code);
  }

  /**
   * Models the instruments among `codes` not modelled yet, as of now (see the class comment);
   * unknown codes are skipped. Returns whether every known code is now modelled.
   */
  activate(codes: Iterable<string>): void {
    const fresh: Instrument[] = [];
    const seen = new Set<string>();
    const wanted = this.expected.size > 0 ? [...codes, ...this.expected] : codes;
    this.expected.clear();
    for (const code of wanted) {
      if (this.modelOf.has(code) || seen.has(code)) continue;
      const inst = this.lookup?.(code);
      if (!inst) continue;
      seen.add(code);
      fresh.push(inst);
    }
    if (fresh.length === 0) return;
    // No step first: the new model is caught up to now, where the others would be; the next
    // step rolls sessions for all of them alike.
    this.addModel(fresh);
  }

  /**
   * A hint that `code` is about to be touched (a subscribe validates a frame's codes before it
   * reads each one's state): the next activation models it along with whatever it was asked
   * for, so a frame of 1,000 codes builds one model, not 1,000. Bounded; never models by itself.
   */
  expect(code: string): void {
    if (this.expected.size < MAX_EXPECTED && !this.modelOf.has(code)) this.expected.add(code);
  }

  /**
   * Call before any order action on `code`: from now on the engine sees its every tick, and its
   * book is brought to the model's current state once (never twice: a repeated update would
   * offer the same liquidity again).
   */
  engage(code: string): void {
    if (this.engaged.has(code)) return;
    this.activate([code]);
    if (!this.modelOf.has(code)) return;
    this.engaged.add(code);
    this.step();
    this.engine?.onMarket(this.modelOf.get(code)!.model.last(code));
  }

  onTick(listener: LiveTickListener): () => void {
    return subscribe(this.listeners, listener);
  }

  /**
   * Contracts dropped from the market because they expired (at the first session open after
   * their expiry date): no more ticks will come for them.
   */
  onDropped(listener: (codes: readonly string[]) => void): () => void {
    this.dropListeners.push(listener);
    return () => {
      const i = this.dropListeners.indexOf(listener);
      if (i >= 0) this.dropListeners.splice(i, 1);
    };
  }

  /** Ticks of today's session replayed for instruments modelled late (never sent to clients). */
  onCatchUp(listener: LiveTickListener): () => void {
    return subscribe(this.catchUpListeners, listener);
  }

  /** Forces a price now (control API); the jump goes to the engine and listeners like any tick. */
  setPrice(code: string, price: Paise): MarketTick | undefined {
    this.activate([code]);
    if (!this.modelOf.has(code)) return undefined;
    this.step();
    // Replays apply the logged forced prices, but the log is bounded: this model is never rebuilt (merged) again.
    const held = this.modelOf.get(code)!;
    held.pinned = true;
    const now = this.clock.now();
    let log = this.forced.get(code);
    if (!log) this.forced.set(code, (log = []));
    log.push({ ts: now, price });
    if (log.length > MAX_FORCED_PER_CODE) log.shift();
    const t = held.model.setPrice(code, price, now);
    // Silent copies follow (the options priced off them move with the jump).
    for (const h of this.models) if (h.shadows.has(code)) h.model.setPrice(code, price, now);
    this.emit(t);
    return t;
  }

  /** A modelled contract's last price with the underlying value it was made at (undefined: not linked, or not modelled). */
  linkedMark(code: string): LinkedMark | undefined {
    return this.modelOf.get(code)?.model.linkedMark(code);
  }

  /**
   * The underlying's last price in the model pricing `contract` (its S at expiry when asked at the
   * expiry session's close); undefined when the contract is not modelled or not priced off an underlying.
   */
  underlyingPrice(contract: string): Paise | undefined {
    const underlying = this.specById.get(contract)?.underlying;
    if (underlying === undefined) return undefined;
    return this.modelOf.get(contract)?.model.lastPrice(underlying);
  }

  /** The current quote of `code`, modelling it first if needed; undefined when unknown. */
  quote(code: string): MarketQuote | undefined {
    this.activate([code]);
    return this.modelOf.get(code)?.model.quote(code);
  }

  /**
   * The book totals of a modelled `code` (undefined when it is not modelled): what a full-mode tick
   * carries, per tick, so nothing is modelled or built on the way.
   */
  bookTotals(code: string): { readonly buy: number; readonly sell: number } | undefined {
    return this.modelOf.get(code)?.model.bookTotals(code);
  }

  /** The latest tick-shaped state of `code`, modelling it first if needed. */
  last(code: string): MarketTick | undefined {
    this.activate([code]);
    return this.modelOf.get(code)?.model.last(code);
  }

  /** Last price of a modelled instrument; never models one (undefined when not modelled). */
  lastPriceIfActive(code: string): Paise | undefined {
    return this.modelOf.get(code)?.model.lastPrice(code);
  }

  /** Depth of a modelled instrument (the engine's book for engaged instruments). */
  depth(code: string): Depth | undefined {
    return this.modelOf.get(code)?.model.depth(code);
  }

  close(): void {
    this.pump?.cancel();
    this.pump = undefined;
  }

  /** Brings the models, the engine's sessions and the listeners up to the clock. */
  step(): void {
    const now = this.clock.now();
    const engine = this.engine;
    if (this.pending.length > 0) this.mergePending();
    for (let guard = 0; guard < 400; guard++) {
      const open = this.currentSessionOpen;
      const close = open + this.sessionLengthMs;
      if (!this.closed) {
        if (now < open) return;
        if (engine && !this.engineOpen) {
          engine.openSession(open);
          this.engineOpen = true;
        }
        // The broker's intraday square-offs inside the session (risk/rules/square-off.ts): ticks up to each, then the square-off.
        if (engine) {
          for (const { segment, at } of squareOffsIn(engine.squareOffTimes, open, close)) {
            if (engine.isSquaredOff(segment)) continue;
            const upTo = Math.min(now, at - 1);
            for (const h of this.models) {
              h.model.advanceEach(upTo, this.deliver);
              h.reach = { session: this.opens.length - 1, ts: upTo };
            }
            if (now < at) return;
            engine.squareOff(segment, at);
            this.log.info({ segment }, 'intraday square-off');
          }
        }
        const to = Math.min(now, close - 1);
        for (const h of this.models) {
          h.model.advanceEach(to, this.deliver);
          h.reach = { session: this.opens.length - 1, ts: to };
        }
        if (now < close) return;
        engine?.expireSession(close);
        this.engineOpen = false;
        this.closed = true;
        this.log.info({ date: istDate(open) }, 'session closed');
      }
      const next = this.calendar.currentOrNextSession(close);
      if (now < next.open) return;
      this.opens.push(next.open);
      for (const h of this.models) {
        h.model.startSession(next.open);
        h.reach = { session: this.opens.length - 1, ts: undefined };
      }
      this.dropExpired(next.date);
      this.pruneForced(next.open);
      this.closed = false;
      this.log.info({ date: next.date }, 'session opened');
    }
  }

  // ------------------------------------------------------------------------------------------

  /**
   * Drops the contracts that expired before `date` (a session that just opened): their models
   * are rebuilt at this open without them (and without the silent underlyings only they needed),
   * their forced prices, specs and engagement go, and drop listeners are told (the WebSocket hub
   * ends their subscriptions). So a strategy rolling to new weeklies for weeks holds this week's
   * contracts, not every one it ever touched. The instrument of a contract the engine traded is
   * kept (`instrumentOf`: its position outlives the listing).
   */
  private dropExpired(date: string): void {
    const gone = new Set<string>();
    for (const [id, inst] of this.instruments) if (inst.expiry !== undefined && inst.expiry < date && this.modelOf.has(id)) gone.add(id);
    if (gone.size === 0) return;
    const reach: Reach = { session: this.opens.length - 1, ts: undefined };
    const rebuilt = new Map<Held, Held | undefined>();
    for (const h of this.models) {
      if (!h.specs.some((sp) => gone.has(sp.instrument.id))) continue;
      const kept = h.specs.filter((sp) => !gone.has(sp.instrument.id));
      const needed = new Set(kept.filter((sp) => sp.silent !== true && sp.underlying !== undefined).map((sp) => sp.underlying));
      const specs = kept.filter((sp) => sp.silent !== true || needed.has(sp.instrument.id));
      // Rebuilt at this open from where the old model stands (play reads the open states before the old one goes).
      const next = specs.some((sp) => sp.silent !== true) ? this.play(specs, reach, undefined) : undefined;
      if (next) next.pinned = h.pinned;
      rebuilt.set(h, next);
    }
    const replace = (list: Held[]): Held[] => list.flatMap((h) => (rebuilt.has(h) ? (rebuilt.get(h) ? [rebuilt.get(h)!] : []) : [h]));
    this.models = replace(this.models);
    this.pending = replace(this.pending);
    for (const h of rebuilt.values()) if (h) for (const sp of h.specs) if (sp.silent !== true) this.modelOf.set(sp.instrument.id, h);
    for (const id of gone) {
      this.modelOf.delete(id);
      this.specById.delete(id);
      this.forced.delete(id);
      this.expected.delete(id);
      if (!this.engaged.delete(id)) this.instruments.delete(id);
    }
    this.log.info({ date, dropped: gone.size, modelled: this.modelOf.size, models: this.models.length }, 'expired contracts dropped from the market');
    const codes = [...gone];
    for (const l of this.dropListeners) l(codes);
  }

  /**
   * Forgets prices forced before `open`: every model now starts from the open states, which
   * carry them (only instruments nobody modelled are replayed from the first session, and those
   * have none), so the log holds one session at most.
   */
  private pruneForced(open: number): void {
    for (const [code, log] of this.forced) {
      const keep = log.filter((e) => e.ts >= open);
      if (keep.length === 0) this.forced.delete(code);
      else if (keep.length < log.length) this.forced.set(code, keep);
    }
  }

  /** A model of `instruments` from the first session's open, caught up to where the others are. */
  private addModel(instruments: readonly Instrument[]): void {
    const specs: MarketInstrumentSpec[] = instruments.map((inst) => this.specOf(inst));
    // Linked contracts need their underlying in the same model: a silent copy when it is not in this batch.
    const here = new Set(instruments.map((i) => i.id));
    for (let k = 0; k < instruments.length; k++) {
      const inst = instruments[k]!;
      if (inst.segment !== 'FNO') continue;
      const link = this.linkOf(inst);
      if (!link) continue;
      if (!here.has(link.underlying)) {
        const known = this.specById.get(link.underlying);
        const u = known?.instrument ?? this.lookup?.(link.underlying);
        if (!u) continue;
        here.add(u.id);
        specs.push({ ...(known ?? this.specOf(u)), silent: true });
      }
      specs[k] = { ...specs[k]!, underlying: link.underlying, valuer: link.valuer };
    }
    const now = this.clock.now();
    const current = this.opens.length - 1;
    const open = this.opens[current]!;
    const until = now >= open ? Math.min(now, open + this.sessionLengthMs - 1) : undefined;
    const replay = (t: MarketTick): void => {
      for (const l of this.catchUpListeners) l(t);
    };
    const held = this.play(specs, { session: current, ts: until }, this.closed ? undefined : replay);
    this.models.push(held);
    this.pending.push(held);
    for (let k = 0; k < instruments.length; k++) {
      const inst = instruments[k]!;
      this.modelOf.set(inst.id, held);
      this.instruments.set(inst.id, inst);
      this.specById.set(inst.id, specs[k]!);
    }
  }

  private specOf(inst: Instrument): MarketInstrumentSpec {
    let prevClose: Paise | undefined;
    try {
      prevClose = this.previousClose?.(inst.id, this.firstDate);
    } catch {
      prevClose = undefined;
    }
    const iv = this.intervals;
    const base = syntheticSpec(inst, this.seed);
    const tickIntervalMs = inst.kind === 'OPTIDX' || inst.kind === 'OPTSTK' ? iv.options : inst.kind === 'FUTIDX' || inst.kind === 'FUTSTK' ? iv.futures : iv.cash;
    return { ...base, ...(prevClose !== undefined && prevClose > 0 ? { prevClose } : {}), tickIntervalMs };
  }

  private linkOf(contract: Instrument): DerivativeLink | undefined {
    try {
      const link = this.derivativeLink?.(contract);
      return link && link.underlying !== contract.id ? link : undefined;
    } catch (e) {
      this.log.warn({ instrument: contract.id, err: e }, 'contract left unlinked: its pricing could not be set up');
      return undefined;
    }
  }

  /**
   * A model of `specs` at `reach` (a session, and a time within it), handing that session's ticks
   * to `onToday`. Its instruments start at that session's open: where the models already holding
   * them stood then (`MarketModel.openState`); a linked contract modelled for the first time at
   * its settlement off its underlying's close (what it would have opened at, had it been modelled
   * all along: see `MarketModel.startSession`). Only an instrument nobody has modelled yet that is
   * not priced off another is played from the first session's open (its own path, cheap: no
   * valuer). So touching a contract or merging models costs the current session so far, whatever
   * the age of the run.
   */
  private play(specs: readonly MarketInstrumentSpec[], reach: Reach, onToday: LiveTickListener | undefined): Held {
    const shadows = new Set(specs.filter((x) => x.silent === true).map((x) => x.instrument.id));
    if (reach.session === 0) return { model: this.replay(specs, reach, onToday), specs, shadows, reach, pinned: false };
    const open = this.opens[reach.session]!;
    const states = new Map<string, InstrumentOpenState>();
    const unseen: MarketInstrumentSpec[] = [];
    for (const sp of specs) {
      const id = sp.instrument.id;
      const st = this.openStateOf(id);
      if (st) states.set(id, st);
      else if (sp.underlying === undefined) unseen.push({ ...sp, silent: true });
    }
    if (unseen.length > 0) {
      const before = this.replay(unseen, { session: reach.session - 1, ts: undefined }, undefined, true);
      before.startSession(open);
      for (const sp of unseen) states.set(sp.instrument.id, before.openState(sp.instrument.id));
    }
    const resumed = specs.map((sp) => {
      const st = states.get(sp.instrument.id);
      return st ? { ...sp, openState: st } : sp;
    });
    const model = new MarketModel(resumed, { seed: this.seed, sessionOpen: open, sessionLengthMs: this.sessionLengthMs, resumeAfter: this.opens[reach.session - 1]! + this.sessionLengthMs });
    this.playSession(model, this.forcedOf(specs).filter((e) => e.ts >= open), reach.ts, onToday ?? discard);
    return { model, specs, shadows, reach, pinned: false };
  }

  /** Where `id` stood at the current session's open in a model holding it (undefined: not modelled). */
  private openStateOf(id: string): InstrumentOpenState | undefined {
    const held = this.modelOf.get(id);
    if (held) return held.model.openState(id);
    for (const h of this.models) if (h.model.has(id)) return h.model.openState(id);
    return undefined;
  }

  /** Plays today's session on `model` to `until` (undefined: not open yet), with the prices forced today. */
  private playSession(model: MarketModel, forced: readonly { readonly code: string; readonly ts: number; readonly price: Paise }[], until: number | undefined, sink: LiveTickListener): void {
    for (const e of forced) {
      // One forced after the close (the session is over, the next not open) applies after its last tick.
      if (until !== undefined) model.advanceEach(Math.min(e.ts, until), sink);
      model.setPrice(e.code, e.price, e.ts);
    }
    if (until !== undefined) model.advanceEach(until, sink);
  }

  /**
   * A model of `specs` played from the first session's open to `reach` (sessions before it to
   * their close, that one up to `reach.ts`), handing that last session's ticks to `onToday`;
   * `toClose`: `reach.session` is played to its close too.
   */
  private replay(specs: readonly MarketInstrumentSpec[], reach: Reach, onToday: LiveTickListener | undefined, toClose = false): MarketModel {
    const model = new MarketModel(specs, { seed: this.seed, sessionOpen: this.opens[0]!, sessionLengthMs: this.sessionLengthMs });
    const forced = this.forcedOf(specs);
    let f = 0;
    for (let k = 0; k <= reach.session; k++) {
      const open = this.opens[k]!;
      if (k > 0) model.startSession(open);
      const last = k === reach.session && !toClose;
      const sink = last ? (onToday ?? discard) : discard;
      // Prices forced while this session was the model's (up to the next open), at the time they were.
      const end = last ? Infinity : this.opens[k + 1]!;
      for (; f < forced.length && forced[f]!.ts < end; f++) {
        const e = forced[f]!;
        model.advanceEach(last && reach.ts !== undefined ? Math.min(e.ts, reach.ts) : e.ts, sink);
        model.setPrice(e.code, e.price, e.ts);
      }
      // Every session before the current one was played to its close.
      if (!last) model.advanceEach(open + this.sessionLengthMs - 1, discard);
      else if (reach.ts !== undefined) model.advanceEach(reach.ts, sink);
    }
    return model;
  }

  /** Forced prices of the instruments in `specs`, in time order. */
  private forcedOf(specs: readonly MarketInstrumentSpec[]): { readonly code: string; readonly ts: number; readonly price: Paise }[] {
    if (this.forced.size === 0) return [];
    const out: { code: string; ts: number; price: Paise }[] = [];
    for (const sp of specs) for (const e of this.forced.get(sp.instrument.id) ?? []) out.push({ code: sp.instrument.id, ts: e.ts, price: e.price });
    // Stable: two forced in one instant keep their order.
    return out.sort((a, b) => a.ts - b.ts);
  }

  /**
   * Merges models standing at the same slot of the same session into one, replayed silently
   * (their ticks were already handed out): the models built since the last step (a subscribe of
   * 3,000 instruments one by one costs one model per step, not 3,000), and, once more than
   * `MAX_SMALL_MODELS` small ones pile up (touches spread over the day), those small ones too, so
   * the per-step cost stays bounded by the number of instruments, not of touches.
   */
  private mergePending(): void {
    const fresh = new Set(this.pending);
    this.pending = [];
    const slotMs = this.models[0]?.model.options.slotMs ?? 250;
    const groups = new Map<string, Held[]>();
    for (const h of this.models) {
      if (h.pinned || (!fresh.has(h) && h.specs.length >= SMALL_MODEL)) continue;
      const open = this.opens[h.reach.session]!;
      const key = `${h.reach.session}:${h.reach.ts === undefined ? 'pre' : Math.floor((h.reach.ts - open) / slotMs)}`;
      const g = groups.get(key);
      if (g) g.push(h);
      else groups.set(key, [h]);
    }
    for (const group of groups.values()) {
      const newOnes = group.filter((h) => fresh.has(h));
      const merge = group.length > MAX_SMALL_MODELS ? group : newOnes;
      if (merge.length < 2) continue;
      const merged = this.play(mergedSpecs(merge), merge[0]!.reach, undefined);
      const gone = new Set(merge);
      this.models = this.models.filter((h) => !gone.has(h));
      this.models.push(merged);
      for (const sp of merged.specs) if (sp.silent !== true) this.modelOf.set(sp.instrument.id, merged);
    }
  }

  private emit(t: MarketTick): void {
    if (this.engaged.has(t.instrument)) this.engine?.onMarket(t);
    for (const l of this.listeners) l(t);
  }
}

/** The specs of models merged into one: each instrument once, a handed-out one over a silent copy. */
function mergedSpecs(models: readonly Held[]): MarketInstrumentSpec[] {
  const byId = new Map<string, MarketInstrumentSpec>();
  for (const h of models) {
    for (const sp of h.specs) {
      const had = byId.get(sp.instrument.id);
      if (!had || (had.silent === true && sp.silent !== true)) byId.set(sp.instrument.id, sp);
    }
  }
  return [...byId.values()];
}

const discard = (): void => {};

function subscribe(list: LiveTickListener[], listener: LiveTickListener): () => void {
  list.push(listener);
  return () => {
    const i = list.indexOf(listener);
    if (i >= 0) list.splice(i, 1);
  };
}
