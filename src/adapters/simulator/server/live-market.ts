/**
 * The simulator's running market: the market model (price paths for every instrument of the
 * universe) driven from the simulator's clock, feeding each tick to the matching engine and then
 * to tick listeners (the WebSocket hub), and rolling sessions on the NSE calendar (DAY orders
 * expire at the close; the next open starts a new day for the model and the engine).
 *
 * The engine gets every tick only of the instruments it is engaged in (an order was placed on
 * them: working orders and positions need every move); any other instrument's book is brought
 * up to date right before its first order (`engage`). A day of the whole universe then costs the
 * model's work, not the engine's.
 *
 * Previous closes come from the history service when it knows the instrument (so quotes, candles
 * and option strikes agree), else from the model's synthetic prices. Options tick less often than
 * cash and futures by default: they are most of the universe and few of them trade.
 */
import type { MarketCalendar } from '../../../core/calendar.js';
import type { Clock, TimerHandle } from '../../../core/clock.js';
import type { Instrument } from '../../../core/instruments.js';
import type { Logger } from '../../../core/log.js';
import type { Paise } from '../../../core/money.js';
import { istDate } from '../../../core/time.js';
import { MarketModel, syntheticSpec, type MarketInstrumentSpec, type MarketTick } from '../market/index.js';
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
  readonly instruments: readonly Instrument[];
  readonly seed: number;
  readonly log: Logger;
  /** Previous close of an instrument for the session on `date`, when a data source knows it. */
  readonly previousClose?: (scripCode: string, date: string) => Paise | undefined;
  readonly tickIntervals?: TickIntervals;
  /** How often the clock drives the model (market ms). Default 250. */
  readonly pumpMs?: number;
}

export type LiveTickListener = (tick: MarketTick) => void;

export class LiveMarket {
  readonly model: MarketModel;
  private engine: MatchingEngine | undefined;
  private readonly listeners: LiveTickListener[] = [];
  private readonly clock: Clock;
  private readonly calendar: MarketCalendar;
  private readonly log: Logger;
  private pump: TimerHandle | undefined;
  /** The model's current session has been closed (DAY orders expired). */
  private closed = false;
  private engineOpen = false;
  private readonly deliver = (t: MarketTick): void => this.emit(t);
  /** Instruments whose every tick the engine sees. */
  private readonly engaged = new Set<string>();

  constructor(options: LiveMarketOptions) {
    this.clock = options.clock;
    this.calendar = options.calendar;
    this.log = options.log;
    const now = this.clock.now();
    const session = this.calendar.currentOrNextSession(now);
    const prevDate = this.calendar.previousTradingDay(session.date);
    const iv = { cash: 2000, futures: 2000, options: 20_000, ...options.tickIntervals };
    const specs: MarketInstrumentSpec[] = [];
    let fromHistory = 0;
    for (const inst of options.instruments) {
      let prevClose: Paise | undefined;
      try {
        prevClose = options.previousClose?.(inst.id, session.date);
      } catch {
        prevClose = undefined;
      }
      const base = syntheticSpec(inst, options.seed);
      if (prevClose !== undefined && prevClose > 0) fromHistory++;
      const tickIntervalMs = inst.kind === 'OPTIDX' || inst.kind === 'OPTSTK' ? iv.options : inst.kind === 'FUTIDX' || inst.kind === 'FUTSTK' ? iv.futures : iv.cash;
      specs.push({ ...base, ...(prevClose !== undefined && prevClose > 0 ? { prevClose } : {}), tickIntervalMs });
    }
    this.model = new MarketModel(specs, {
      seed: options.seed,
      sessionOpen: session.open,
      sessionLengthMs: session.close - session.open,
    });
    this.log.info({ instruments: specs.length, prevCloseFromUniverse: fromHistory, session: session.date, prevDate }, 'market model ready');
    this.pumpMs = options.pumpMs ?? 250;
  }

  private readonly pumpMs: number;

  /** Starts driving the model from the clock; ticks go to `engine` first, then to listeners. */
  start(engine: MatchingEngine): void {
    this.engine = engine;
    this.engineOpen = engine.isSessionOpen();
    this.step();
    this.pump = this.clock.setInterval(() => this.step(), this.pumpMs);
  }

  /**
   * Call before any order action on `code`: from now on the engine sees its every tick, and its
   * book is brought to the model's current state once (never twice: a repeated update would
   * offer the same liquidity again).
   */
  engage(code: string): void {
    if (this.engaged.has(code) || !this.model.has(code)) return;
    this.engaged.add(code);
    this.step();
    this.engine?.onMarket(this.model.last(code));
  }

  onTick(listener: LiveTickListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Forces a price now (control API); the jump goes to the engine and listeners like any tick. */
  setPrice(code: string, price: Paise): MarketTick {
    this.step();
    const t = this.model.setPrice(code, price, this.clock.now());
    this.emit(t);
    return t;
  }

  close(): void {
    this.pump?.cancel();
    this.pump = undefined;
  }

  /** Brings the model, the engine's sessions and the listeners up to the clock. */
  step(): void {
    const now = this.clock.now();
    const engine = this.engine;
    for (let guard = 0; guard < 400; guard++) {
      const open = this.model.currentSessionOpen;
      const close = this.model.currentSessionClose;
      if (!this.closed) {
        if (now < open) return;
        if (engine && !this.engineOpen) {
          engine.openSession(open);
          this.engineOpen = true;
        }
        this.model.advanceEach(Math.min(now, close - 1), this.deliver);
        if (now < close) return;
        engine?.expireSession(close);
        this.engineOpen = false;
        this.closed = true;
        this.log.info({ date: istDate(open) }, 'session closed');
      }
      const next = this.calendar.currentOrNextSession(close);
      if (now < next.open) return;
      this.model.startSession(next.open);
      this.closed = false;
      this.log.info({ date: next.date }, 'session opened');
    }
  }

  private emit(t: MarketTick): void {
    if (this.engaged.has(t.instrument)) this.engine?.onMarket(t);
    for (const l of this.listeners) l(t);
  }
}
