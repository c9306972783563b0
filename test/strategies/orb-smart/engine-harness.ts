/**
 * Runs one strategy in the engine a backtest runs (backtest/runner.ts builds it: the daemon's
 * `Engine` with its strategy runner, risk and execution) over the backtest venue
 * (`backtest/venue.ts`) and the simulator's matching engine, one hand-made candle at a time, so a
 * test can look at intents, denials, fills and orders between candles.
 *
 * The only glue here is the replay's per-candle order (backtest/runner.ts, `replay`): open the
 * session on a new IST day, play the candle through the venue, expire DAY orders at the close,
 * then show the candle to the strategy. Everything between the strategy and the venue is the
 * engine's own.
 */
import type { DeniedEvent, OrderSnapshot } from '../../../src/core/events.js';
import { DenialCode, type CandleEvent } from '../../../src/core/events.js';
import type { Intent } from '../../../src/core/intents.js';
import { InstrumentTable, type Instrument } from '../../../src/core/instruments.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { Paise } from '../../../src/core/money.js';
import { MemoryStore, type JsonValue } from '../../../src/core/store.js';
import { istDate, istDateTime } from '../../../src/core/time.js';
import type { RiskConfigInput } from '../../../src/risk/config.js';
import type { Strategy, StrategyContext } from '../../../src/strategies/strategy.js';
import { CandleDriver, MatchingEngine } from '../../../src/adapters/simulator/matching/index.js';
import type { SimTrade } from '../../../src/adapters/simulator/matching/types.js';
import { Engine } from '../../../src/engine/engine.js';
import { BacktestVenue } from '../../../backtest/venue.js';

export interface HarnessOptions {
  readonly instruments: readonly Instrument[];
  /** Epoch ms the clock starts at (the first session's open, or before). */
  readonly start: number;
  readonly openingBalance?: Paise;
  /** `on`: the venue trails smart orders natively (the backtest's `trailing: native`). */
  readonly tsl?: 'on' | 'off';
  /** The engine's risk limits (default: every check on, as a backtest runs). */
  readonly risk?: RiskConfigInput;
  /** Persisted strategy state to start from (a restart): loaded from the store by `Engine.start`. */
  readonly state?: { [key: string]: JsonValue };
  /** `ctx.orders.get` forgets fully filled orders, as an engine pruning finished records may. */
  readonly pruneFilled?: boolean;
}

export interface Denial {
  readonly intent: Intent;
  readonly reason: string;
  /** `venue` when the venue refused it, `risk` when the engine did (risk checks, warm-up). */
  readonly by: 'risk' | 'venue';
}

export class EngineHarness {
  /** Every intent the strategy submitted, in order (warm-up refusals included). */
  readonly intents: Intent[] = [];
  readonly denials: Denial[] = [];
  readonly trades: SimTrade[] = [];
  /** Feed candles as warm-up history (`Engine.feedWarmup`): the strategy sees them, nothing trades. */
  warmingUp = false;
  private readonly byTag = new Map<string, OrderSnapshot>();
  private sessionDay: string | undefined;

  private constructor(
    readonly clock: VirtualClock,
    /** The venue's matching engine (book, account). */
    readonly engine: MatchingEngine,
    private readonly driver: CandleDriver,
    /** The tarang engine the strategy runs in. */
    readonly tarang: Engine,
    readonly strategyId: string,
    private readonly seen: { ctx?: StrategyContext },
  ) {
    engine.subscribe((e) => {
      if (e.type === 'fill') this.trades.push(e.trade);
    });
    tarang.bus.on('intent', (e) => {
      if (e.intent.strategyId === strategyId) this.intents.push(e.intent);
    });
    tarang.bus.on('denied', (d: DeniedEvent) => {
      if (d.intent.strategyId !== strategyId) return;
      // A strategy not ready refuses before the intent reaches the bus.
      if (d.code === DenialCode.STRATEGY_NOT_READY) this.intents.push(d.intent);
      this.denials.push({ intent: d.intent, reason: d.reason, by: d.code === DenialCode.VENUE_REJECTED ? 'venue' : 'risk' });
    });
    tarang.bus.on('order', (e) => {
      const o = e.order;
      this.byTag.set(o.tag, o);
      if (o.parentTag !== undefined && (o.leg === 'stopLoss' || o.leg === 'target')) this.byTag.set(`${o.parentTag}:${o.leg}`, o);
    });
  }

  static async start(strategy: Strategy, o: HarnessOptions, id = 'test-1'): Promise<EngineHarness> {
    const clock = new VirtualClock(o.start);
    const instruments = new InstrumentTable(o.instruments);
    const tsl = o.tsl ?? 'off';
    const matching = new MatchingEngine({
      instruments,
      clock,
      matchOnArrival: false,
      tsl,
      sessionOpen: false,
      accountOptions: { openingBalance: o.openingBalance ?? 10_000_000_00 },
    });
    const driver = new CandleDriver(matching, { bothTouched: 'pessimistic' });
    const venue = new BacktestVenue(matching, { nativeTrailing: tsl === 'on', clock });
    const store = new MemoryStore();
    if (o.state) await store.set(`strategy:${id}`, 'state', o.state);
    const seen: { ctx?: StrategyContext } = {};
    const watched = watch(strategy, o.pruneFilled === true, (ctx) => (seen.ctx = ctx));
    const engine = await Engine.create({ clock, venue, instruments, store, strategies: [{ id, strategy: watched }], buildCandles: false, tagPrefix: 'bt', ...(o.risk ? { risk: o.risk } : {}) });
    const harness = new EngineHarness(clock, matching, driver, engine, id, seen);
    await engine.start();
    return harness;
  }

  /** The strategy's context, as its last hook saw it. */
  get ctx(): StrategyContext {
    if (!this.seen.ctx) throw new Error('harness: the strategy has not been called yet');
    return this.seen.ctx;
  }

  /**
   * One closed candle, in the backtest replay's order: the venue plays it first (orders resting
   * since earlier candles may fill on it), DAY orders expire at 15:30, then the strategy sees it.
   */
  candle(c: CandleEvent): void {
    const day = istDate(c.start);
    const m = this.engine;
    if (day !== this.sessionDay) {
      if (m.isSessionOpen()) m.expireSession(this.clock.now());
      if (c.start > this.clock.now()) this.clock.advanceTo(c.start);
      m.openSession(c.start);
      this.sessionDay = day;
    }
    if (c.start > this.clock.now()) this.clock.advanceTo(c.start);
    this.driver.playCandle({ instrument: c.instrument, start: c.start, ts: c.ts, open: c.open, high: c.high, low: c.low, close: c.close, volume: c.volume });
    if (c.ts > this.clock.now()) this.clock.advanceTo(c.ts);
    if (c.ts >= istDateTime(day, '15:30')) m.expireSession(c.ts);
    if (this.warmingUp) this.tarang.feedWarmup([c]);
    else this.tarang.publishCandle(c);
  }

  /** The last snapshot of the order with this tag; `<tag>:stopLoss` / `<tag>:target` name a smart order's legs. */
  order(tag: string): OrderSnapshot | undefined {
    return this.byTag.get(tag);
  }

  stop(): Promise<void> {
    return this.tarang.stop();
  }
}

/** The strategy with every hook's context remembered, and optionally filled orders hidden from `ctx.orders.get`. */
function watch(s: Strategy, pruneFilled: boolean, seen: (ctx: StrategyContext) => void): Strategy {
  const view = (ctx: StrategyContext): StrategyContext => {
    const v: StrategyContext = pruneFilled
      ? Object.create(ctx, {
          orders: {
            value: {
              get: (tag: string) => {
                const o = ctx.orders.get(tag);
                return o?.status === 'FILLED' ? undefined : o;
              },
              open: (instrument?: string) => ctx.orders.open(instrument),
              settling: (instrument?: string) => ctx.orders.settling(instrument),
            },
          },
        })
      : ctx;
    seen(v);
    return v;
  };
  return {
    instruments: s.instruments,
    ...(s.intervals ? { intervals: s.intervals } : {}),
    ...(s.warmup !== undefined ? { warmup: s.warmup } : {}),
    onStart: (ctx) => s.onStart?.(view(ctx)),
    onCandle: (c, ctx) => s.onCandle?.(c, view(ctx)),
    onTick: (t, ctx) => s.onTick?.(t, view(ctx)),
    onOrder: (o, ctx) => s.onOrder?.(o, view(ctx)),
    onFill: (f, ctx) => s.onFill?.(f, view(ctx)),
    onPosition: (p, ctx) => s.onPosition?.(p, view(ctx)),
    onStop: (ctx) => s.onStop?.(view(ctx)),
  };
}
