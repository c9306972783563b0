/**
 * The engine: one assembly of bus, candle builder, strategies (safe runners), risk, execution
 * (order state machine, portfolio, emulation) over any `ExecutionVenue`. The backtester, the
 * paper daemon and the live daemon all build this same object (see engine-options.ts for how to
 * drive it).
 *
 * Hot path of a tick, all synchronous: `publishTick` -> candle builder (closes buckets first, so a
 * candle is seen before the tick that closed it) -> bus -> portfolio mark -> strategies of that
 * instrument -> their intents are queued on the bus -> risk checks -> execution -> venue write.
 * No promise, no RxJS operator and no per-event allocation beyond the events themselves.
 */
import type { Subscription } from 'rxjs';
import type { Clock } from '../core/clock.js';
import type { CandleEvent, Event, FillEvent, OrderEvent, PositionEvent, TickEvent } from '../core/events.js';
import type { Paise } from '../core/money.js';
import { LifecyclePhase } from '../core/events.js';
import { isTerminalStatus } from '../core/enums.js';
import type { Logger } from '../core/log.js';
import { silentLogger } from '../core/silent-log.js';
import { MemoryStore, type JsonValue, type Store } from '../core/store.js';
import { ConfigError } from '../core/errors.js';
import { parseExecutionConfig } from '../adapters/execution/config.js';
import { trailingModeOf } from '../adapters/execution/venue.js';
import { ExecutionEngine, type DayReconcileResult } from '../adapters/execution/execution-engine.js';
import { OrderStateMachine, type NewOrder } from '../adapters/execution/order-state-machine.js';
import { Portfolio } from '../adapters/execution/portfolio.js';
import { TrailingStops } from '../adapters/execution/trailing-stops.js';
import { readJournal, readModifications, writeJournalEntry, writeModifications, type JournalEntry } from '../adapters/execution/order-journal.js';
import { cancelAllAndWait, flattenAndWait } from './operator-actions.js';
import { warmupNeedsOf, type WarmupNeed } from './warmup-needs.js';

export type { WarmupNeed } from './warmup-needs.js';
import { DEFAULT_TAG_PREFIX, runPastBook, strategyKey, TagMinter } from '../adapters/execution/tags.js';
import { adoptOrder, KeyAdoptions } from './adopt.js';
import type { ExecutionVenue, VenueOrderState } from '../adapters/execution/venue.js';
import type { RiskConfig, TradingState } from '../risk/config.js';
import type { CircuitBand } from '../risk/types.js';
import { RiskEngine } from '../risk/risk-engine.js';
import { parseStrategyParams } from '../strategies/params.js';
import { StrategyRunner } from '../strategies/runner.js';
import type { Strategy } from '../strategies/strategy.js';
import { CandleAggregator } from '../core/bus/candle-aggregator.js';
import type { EngineOptions } from './engine-options.js';
import { EventBus } from '../core/bus/event-bus.js';
import { intradayExitTimes, squareOffTimes } from '../risk/rules/square-off.js';
import { IntradayExit } from './intraday-exit.js';
import { PositionMismatch } from './position-mismatch.js';

/** The risk limits in force, the kill switch, and the funds last read from the venue. */
export interface RiskView {
  readonly config: RiskConfig;
  readonly killSwitch: boolean;
  readonly availableFunds: Paise | undefined;
}

/** What the engine handles from the bus, in the order it subscribes. */
const ENGINE_EVENTS = ['tick', 'candle', 'intent', 'fill', 'order', 'position'] as const;

export class Engine {
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly store: Store;
  readonly orders: OrderStateMachine;
  readonly portfolio: Portfolio;
  readonly risk: RiskEngine;
  readonly execution: ExecutionEngine;
  readonly runners: readonly StrategyRunner[];
  /** Scrip codes the strategies need market data for. */
  readonly instruments: readonly string[];
  readonly venue: ExecutionVenue;
  private readonly trailing: TrailingStops;
  /** The engine's own intraday exit (undefined when `intradayExitAt` is off). */
  readonly intradayExit: IntradayExit | undefined;
  private readonly mismatch: PositionMismatch;
  private readonly candles: CandleAggregator | undefined;
  private readonly log: Logger;
  private readonly byInstrument = new Map<string, StrategyRunner[]>();
  /** instrument -> interval -> runners (nested maps: no key string built per candle). */
  private readonly bySeries = new Map<string, Map<string, StrategyRunner[]>>();
  /** The runners of the series of the last candle (set once at construction, so never stale): a backtest's candles come series after series. */
  private lastSeries: { instrument: string | undefined; interval: string | undefined; runners: StrategyRunner[] | undefined } = { instrument: undefined, interval: undefined, runners: undefined };
  private readonly byId = new Map<string, StrategyRunner>();
  private readonly states = new Map<string, { [key: string]: JsonValue }>();
  private readonly journal = new Map<string, JournalEntry>();
  /** Strategy key in tags (tags.ts strategyKey) -> strategy id, for orders the journal lost. */
  private readonly byKey = new Map<string, string>();
  /** Adoptions by tag key, announced in one alert per book read. */
  private readonly keyAdoptions = new KeyAdoptions((a) => this.bus.publish({ type: 'alert', ts: this.clock.now(), ...a }), (tag, strategyId) => this.log.info({ tag, strategyId }, 'engine: order not in the journal adopted under the strategy its tag names'));
  /** Replaced once at start if the broker's book holds tags of this run number or later (see start). */
  private tags: TagMinter;
  private venueSub: Subscription | undefined;
  private started = false;

  /** Builds an engine: validates options and parameters, reserves a run number for unique tags. */
  static async create(options: EngineOptions): Promise<Engine> {
    const store = options.store ?? new MemoryStore();
    const run = await store.incr('engine', 'run');
    return new Engine(options, store, run);
  }

  private constructor(options: EngineOptions, store: Store, run: number) {
    this.clock = options.clock;
    this.store = store;
    this.venue = options.venue;
    this.log = options.log ?? silentLogger();
    this.tags = new TagMinter(options.tagPrefix ?? DEFAULT_TAG_PREFIX, run, options.strategyKeysInTags ?? false);
    const execConfig = parseExecutionConfig(options.execution);
    this.bus = new EventBus({ log: this.log });
    this.orders = new OrderStateMachine(this.clock, this.bus, {
      log: this.log,
      isOurTag: (t) => this.tags.isOurs(t),
      ...(options.retainFinishedOrders !== undefined ? { retainFinished: options.retainFinishedOrders } : {}),
    });
    this.orders.onUnknownTagged = (s) => this.adopt(s);
    this.portfolio = new Portfolio(this.clock, this.bus);
    const brokerSquareOff = options.squareOffTimes ?? squareOffTimes();
    let exitTimes;
    try {
      exitTimes = intradayExitTimes(options.intradayExitAt, brokerSquareOff);
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
    const late: { execution?: ExecutionEngine } = {};
    this.risk = new RiskEngine({
      clock: this.clock,
      bus: this.bus,
      store,
      log: this.log,
      config: options.risk,
      trailingMode: trailingModeOf(this.venue.capabilities),
      autoSlice: execConfig.autoSlice,
      intradayCutoff: exitTimes ?? brokerSquareOff,
      sources: {
        instruments: options.instruments,
        orders: this.orders,
        portfolio: this.portfolio,
        availableFunds: () => late.execution?.availableFunds(),
      },
    });
    const execution = new ExecutionEngine({
      clock: this.clock,
      bus: this.bus,
      venue: this.venue,
      orders: this.orders,
      portfolio: this.portfolio,
      config: execConfig,
      maxModifications: this.risk.config.maxModifications,
      replaceAt: this.risk.config.replaceAt,
      newTag: (strategyId) => this.newTag(strategyId),
      marginOf: (instrument, side, qty, price, product) => {
        const inst = options.instruments.get(instrument);
        return inst ? this.risk.margin.required(inst, side, qty, price, product).total : qty * price;
      },
      store,
      log: this.log,
      instruments: options.instruments,
    });
    this.execution = late.execution = execution;
    this.mismatch = new PositionMismatch({
      clock: this.clock, bus: this.bus, risk: this.risk, mode: execConfig.onPositionMismatch, recheckMs: execConfig.mismatchRecheckMs,
      reread: () => this.execution.resync('position mismatch'), log: this.log,
    });
    execution.onPositionCheck((diffs) => this.mismatch.onCheck(diffs));
    this.trailing = new TrailingStops({
      clock: this.clock,
      bus: this.bus,
      orders: this.orders,
      instruments: options.instruments,
      venueTrails: this.venue.capabilities.trailingStop,
      minTicks: execConfig.trailMinTicks,
      replaceAt: this.risk.config.replaceAt,
      submit: (intent) => this.bus.publish({ type: 'intent', ts: this.clock.now(), intent }),
      protect: (intent) => this.execution.execute(intent),
      newTag: (strategyId) => this.newTag(strategyId),
      log: this.log,
    });
    this.intradayExit = exitTimes
      ? new IntradayExit({ clock: this.clock, bus: this.bus, instruments: options.instruments, orders: this.orders, portfolio: this.portfolio, times: exitTimes, newTag: () => this.newTag() })
      : undefined;
    this.portfolio.onPnl = () => this.risk.onPnl();
    this.risk.onKillSwitch = () => this.execution.flattenAll('risk');

    this.runners = options.strategies.map((spec) => {
      const strategy: Strategy =
        'strategy' in spec ? spec.strategy : spec.definition.create(parseStrategyParams(spec.definition, spec.params, spec.id) as never, { id: spec.id, instruments: options.instruments });
      if (this.byId.has(spec.id)) throw new ConfigError(`two strategies share the id ${JSON.stringify(spec.id)}`);
      const key = strategyKey(spec.id);
      const other = this.byKey.get(key);
      if (other !== undefined && this.tags.strategyKeys) throw new ConfigError(`strategies ${JSON.stringify(other)} and ${JSON.stringify(spec.id)} share the tag key ${key}; rename one`);
      this.byKey.set(key, spec.id);
      for (const i of strategy.instruments) if (!options.instruments.get(i)) throw new ConfigError(`strategy ${spec.id}: unknown instrument ${i}`);
      const state: { [key: string]: JsonValue } = {};
      this.states.set(spec.id, state);
      const runner = new StrategyRunner(spec.id, strategy, {
        bus: this.bus,
        clock: { now: () => this.clock.now() },
        portfolio: this.portfolio.viewFor(spec.id),
        orders: {
          get: (tag) => {
            const o = this.orders.get(tag);
            return o && o.strategyId === spec.id ? o : undefined;
          },
          open: (instrument) => this.orders.openOrders(spec.id, instrument),
          settling: (instrument) => this.orders.settling(spec.id, instrument),
        },
        instruments: options.instruments,
        log: this.log.child({ strategy: spec.id }),
        state,
        newTag: () => this.newTag(spec.id),
      });
      this.byId.set(spec.id, runner);
      for (const i of strategy.instruments) {
        push(this.byInstrument, i, runner);
        for (const iv of strategy.intervals ?? []) {
          let m = this.bySeries.get(i);
          if (!m) this.bySeries.set(i, (m = new Map()));
          push(m, iv, runner);
        }
      }
      return runner;
    });
    this.instruments = [...this.byInstrument.keys()];

    if (options.buildCandles !== false) {
      const agg = new CandleAggregator(this.clock, (c) => this.bus.publish(c));
      for (const r of this.runners) for (const i of r.strategy.instruments) for (const iv of r.strategy.intervals ?? []) agg.add(i, iv);
      this.candles = agg;
    }
    this.wire();
  }

  private wire(): void {
    // The engine itself is the listener (one prototype method for every engine: see BusListener).
    for (const type of ENGINE_EVENTS) this.bus.on(type, this);
  }

  /** Bus delivery of the event types in ENGINE_EVENTS. */
  onBusEvent(e: Event): void {
    switch (e.type) {
      case 'tick':
        return this.onTick(e);
      case 'candle':
        return this.onCandle(e);
      case 'intent':
        if (this.risk.evaluate(e.intent) === null) this.execution.execute(e.intent);
        return;
      case 'fill':
        return this.onFill(e);
      case 'order':
        return this.onOrder(e);
      case 'position':
        return this.onPosition(e);
      default:
        return;
    }
  }

  private onTick(t: TickEvent): void {
    this.intradayExit?.onEvent(t.ts);
    this.portfolio.mark(t.instrument, t.ltp, t.ts);
    const rs = this.byInstrument.get(t.instrument);
    if (rs) for (let i = 0; i < rs.length; i++) rs[i]!.tick(t);
    this.trailing.onTick(t);
  }

  private onCandle(c: CandleEvent): void {
    this.intradayExit?.onEvent(c.ts);
    this.portfolio.mark(c.instrument, c.close, c.ts);
    const last = this.lastSeries;
    if (c.instrument !== last.instrument || c.interval !== last.interval) {
      last.instrument = c.instrument;
      last.interval = c.interval;
      last.runners = this.bySeries.get(c.instrument)?.get(c.interval);
    }
    const rs = last.runners;
    if (rs) for (let i = 0; i < rs.length; i++) rs[i]!.candle(c);
    this.trailing.onPrice(c.instrument, c.high, c.low, c.close);
  }

  private onFill(f: FillEvent): void {
    this.portfolio.applyFill(f);
    this.byId.get(f.strategyId)?.fill(f);
  }

  private onOrder(e: OrderEvent): void {
    this.trailing.onOrder(e.order);
    // A finished order whose fills are still being read is not done for its strategy yet: it
    // hears of it once the fills are booked (the fill events come first), never before.
    if (e.order.settling && isTerminalStatus(e.order.status)) return;
    // The slices of an auto-sliced order: the strategy hears of the order it asked for (their aggregate).
    if (e.order.sliceOf !== undefined) return;
    this.byId.get(e.order.strategyId)?.order(e.order);
  }

  private onPosition(p: PositionEvent): void {
    if (p.strategyId !== undefined) this.byId.get(p.strategyId)?.position(p);
  }

  /** Prefix and run number of this engine's client tags (the session recording's header keeps them). */
  get tagSource(): { readonly prefix: string; readonly run: number } {
    return { prefix: this.tags.prefix, run: this.tags.run };
  }

  /** Mints a client tag unique across restarts: `<prefix><run>-<seq>` in base 36 (with the strategy's key when keys are on). */
  newTag(strategyId?: string): string {
    return this.tags.next(strategyId);
  }

  /**
   * Loads persisted state (risk, tags, modification counts, strategy state), reconciles with the
   * venue (order book, trades, funds), then starts the strategies. Trading begins after this.
   */
  async start(options: { readonly beforeStrategies?: () => void | Promise<void> } = {}): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: LifecyclePhase.STARTING, source: 'engine' });
    await this.risk.load();
    for (const [tag, entry] of await readJournal(this.store)) this.journal.set(tag, entry);
    for (const [id, state] of this.states) {
      const saved = await this.store.get<JsonValue>(`strategy:${id}`, 'state');
      if (saved && typeof saved === 'object' && !Array.isArray(saved)) Object.assign(state, saved);
    }
    this.venueSub = this.venue.updates.subscribe({
      next: (u) => this.execution.onVenueUpdate(u),
      error: (err: unknown) => this.log.error({ err }, 'engine: the venue update stream failed'),
    });
    await this.execution.resync('start');
    await this.skipRunsInBook();
    for (const [tag, n] of await readModifications(this.store)) this.orders.setModifications(tag, n);
    // Reconciled, nothing traded yet: what the account held at start (a recording's header) is read here.
    await options.beforeStrategies?.();
    for (const r of this.runners) r.start();
    this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: LifecyclePhase.STARTED, source: 'engine', detail: `${this.runners.length} strategies, venue ${this.venue.name}` });
  }

  /**
   * The run number in our tags comes from a store counter; a store that forgot it (the memory
   * store of a restarted paper session, a flushed Redis) would mint `tr1-1` again while the
   * broker's book still holds the earlier run's `tr1-1`, and the new order would collide with the
   * adopted one. The book read at start is the truth: the run moves past every run it shows.
   */
  private async skipRunsInBook(): Promise<void> {
    const run = runPastBook(this.orders.all().map((o) => o.tag), this.tags.prefix, this.tags.run);
    if (run === undefined) return;
    this.log.warn({ storedRun: this.tags.run, run }, 'engine: the order book holds tags of this run number; tags continue from a later run');
    this.tags = new TagMinter(this.tags.prefix, run, this.tags.strategyKeys);
    await this.store.set('engine', 'run', run);
  }

  /** Market data in (live/paper): builds candles, then publishes the tick. */
  publishTick(tick: TickEvent): void {
    this.candles?.onTick(tick);
    this.bus.publish(tick);
  }

  /** A finished candle in (backtests, history replays). */
  publishCandle(candle: CandleEvent): void {
    this.bus.publish(candle);
  }

  /** Any event (replays, tests). */
  publish(event: Event): void {
    if (event.type === 'tick') this.publishTick(event);
    else this.bus.publish(event);
  }

  /** Releases candles whose buckets ended by now (drivers that move the clock without timers). */
  flushCandles(): void {
    this.candles?.flush();
  }

  /** Feeds historical candles to the strategies only (warm-up before live data): no orders, no bus. */
  feedWarmup(candles: readonly CandleEvent[]): void {
    for (const c of candles) {
      const rs = this.bySeries.get(c.instrument)?.get(c.interval);
      if (rs) for (const r of rs) r.candle(c, true);
    }
  }

  /** The candle series strategies want history for before trading: the largest `warmup` per (instrument, interval). */
  warmupNeeds(): WarmupNeed[] {
    return warmupNeedsOf(this.runners.map((r) => r.strategy));
  }

  /**
   * The daily reconcile: reads the order book again (unless `readBook` is false), prunes journal
   * entries of finished orders the venue no longer lists, forgets finished orders of earlier days.
   */
  reconcileDay(options: { readonly readBook: boolean }): Promise<DayReconcileResult> {
    return this.execution.reconcileDay(options);
  }

  /** Client tags of every order the engine knows (today's, adopted ones included). */
  orderTags(): string[] {
    return this.orders.all().map((o) => o.tag);
  }

  riskView(): RiskView {
    return { config: this.risk.config, killSwitch: this.risk.killSwitch(), availableFunds: this.execution.availableFunds() };
  }

  /** Sets or clears an instrument's circuit band in the risk layer. */
  setCircuit(instrument: string, band: CircuitBand | undefined): void {
    this.risk.setCircuit(instrument, band);
  }

  tradingState(): TradingState {
    return this.risk.tradingState();
  }

  setTradingState(state: TradingState, reason = 'operator'): void {
    this.risk.setTradingState(state, reason);
  }

  halt(reason: string): void {
    this.risk.setTradingState('halted', reason);
  }

  resume(): void {
    this.risk.setTradingState('active', 'operator resume');
  }

  /** Trips the kill switch by hand: cancel all, flatten all, halt. */
  kill(reason: string): void {
    this.risk.tripKillSwitch(reason);
  }

  /** Cancels every working order; resolves when none is left or after `timeoutMs` of clock time. */
  async cancelAll(reason: string, timeoutMs = 10_000): Promise<void> {
    this.log.info({ reason }, 'engine: cancelling all working orders');
    await cancelAllAndWait(this, timeoutMs);
  }

  /** Cancels every working order and closes every position at market; resolves when flat or at the timeout. */
  async flatten(reason: string, timeoutMs = 10_000): Promise<void> {
    this.log.info({ reason }, 'engine: flattening');
    await flattenAndWait(this, timeoutMs);
  }

  /** Saves every strategy's state (call periodically; done at stop). */
  async checkpoint(): Promise<void> {
    for (const [id, state] of this.states) await this.store.set(`strategy:${id}`, 'state', state);
  }

  /** Re-writes everything persistent (after the store lost it, e.g. a Redis restart). */
  async persist(): Promise<void> {
    await this.checkpoint();
    for (const o of this.orders.all()) {
      if (o.slices !== undefined) continue; // never sent: its slices carry journal entries of their own
      await writeJournalEntry(this.store, o.tag, { strategyId: o.strategyId, instrument: o.instrument, side: o.side, qty: o.qty, ts: this.clock.now() });
      if (o.modifications > 0) await writeModifications(this.store, o.tag, o.modifications);
    }
    await this.store.set('risk', 'tradingState', this.risk.tradingState());
    if (this.risk.killSwitch()) await this.store.set('risk', 'killSwitch', { reason: 'persisted', ts: this.clock.now() });
  }

  /** Stops strategies (onStop), waits for in-flight writes, saves state. Orders are left working. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: LifecyclePhase.STOPPING, source: 'engine' });
    for (const r of this.runners) r.stop();
    await this.execution.idle();
    await this.checkpoint();
    this.candles?.close();
    this.execution.close();
    this.mismatch.stop();
    this.venueSub?.unsubscribe();
    this.started = false;
    this.bus.publish({ type: 'lifecycle', ts: this.clock.now(), phase: LifecyclePhase.STOPPED, source: 'engine' });
  }

  /** A JSON summary (for `tarang ctl status`). */
  summary(): Record<string, unknown> {
    return {
      tradingState: this.risk.tradingState(),
      killSwitch: this.risk.killSwitch(),
      venue: this.venue.name,
      strategies: this.runners.map((r) => ({ id: r.id, paused: r.paused, ...(r.pauseReason ? { reason: r.pauseReason } : {}), pnl: this.portfolio.viewFor(r.id).pnl() })),
      openOrders: this.orders.openCount(),
      positions: this.portfolio.positions().map((p) => ({ instrument: p.instrument, product: p.product, netQty: p.netQty, unrealizedPnl: p.unrealizedPnl ?? null })),
      realizedPnl: this.portfolio.realizedPnl(),
      unrealizedPnl: this.portfolio.unrealizedPnl(),
      dailyPnl: this.portfolio.dailyPnl(),
      availableFunds: this.execution.availableFunds() ?? null,
      events: this.bus.count,
    };
  }

  private adopt(s: VenueOrderState): NewOrder | undefined {
    return adoptOrder(s, {
      journal: this.journal, byKey: this.byKey, prefix: this.tags.prefix,
      alert: (a) => this.bus.publish({ type: 'alert', ts: this.clock.now(), ...a }),
      byKeyAdopted: (tag, strategyId) => this.keyAdoptions.note(tag, strategyId),
    });
  }

}

function push<K, V>(map: Map<K, V[]>, k: K, v: V): void {
  const list = map.get(k);
  if (list) list.push(v);
  else map.set(k, [v]);
}
