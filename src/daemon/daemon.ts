/**
 * The daemon: one long-running trading process, live or paper. Start-up order matters and is:
 *   store -> ops observers -> login -> instruments -> strategies -> engine.start() (load state,
 *   reconcile with the broker's order book, trades and positions by `remarks` tag; unknown orders
 *   are adopted or flagged) -> only then market data and the control API's write commands.
 * Stop (signal, `--duration`, fatal error) is the reverse: ticks stop, the shutdown action runs
 * (none / cancel open orders / flatten), the engine persists and lets in-flight writes finish,
 * sockets close, the recording is flushed, the store closes.
 *
 * Every bus event passes through cheap synchronous observers (observers.ts: metrics, session
 * stats, health, alerts, terminal display, JSONL recorder); none of them can block the tick path.
 */
import type { Subscription } from 'rxjs';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { TickEvent } from '../core/events.js';
import { describeError } from '../core/errors.js';
import { InstrumentTable } from '../core/instruments.js';
import type { Logger } from '../core/log.js';
import type { Paise } from '../core/money.js';
import type { Store } from '../core/store.js';
import { formatIst, istDate, istDateTime } from '../core/time.js';
import { createStore } from '../adapters/redis/create-store.js';
import { RedisStore } from '../adapters/redis/store.js';
import { Alerter, AlertCode } from '../adapters/ops/alerter.js';
import { DaemonMetrics } from '../adapters/ops/metrics.js';
import type { OpsServer } from '../adapters/ops/server.js';
import { WebhookNotifier } from '../adapters/ops/webhook.js';
import { Engine } from '../engine/engine.js';
import type { DaemonConfig, ShutdownAction } from './config.js';
import { HealthTracker } from './health.js';
import { repersist, storeLifecycle } from './store-watch.js';
import { DaemonObservers, type LatencySink } from './observers.js';
import { createOpsServer } from './ops-control.js';
import { nextDayOpen, SessionClose, type NextSessionOpen } from './session-close.js';
import type { BrokerSession } from './parts.js';
import { EventRecorder } from './recorder.js';
import { captureStartState, headerProvider, type StartState } from './recording-header.js';
import { SessionStats } from './session-stats.js';
import { loadStrategySpecs, type StrategyLookup } from './strategy-loader.js';
import { symbolIndex } from './symbols.js';
import { CircuitBands } from './circuit-bands.js';
import { OptionChainService } from './option-chains.js';
import { needsDerivatives, prepareStrategies } from './option-strategies.js';
import { IMPLAUSIBLE_LIMIT, reportRiskLimits } from './risk-limits.js';
import { warmUpFromHistory } from './warm-up.js';
import { SendStampingVenue } from './send-stamping-venue.js';
import { dayCharges } from './day-charges.js';
import { join } from 'node:path';

export const DaemonMode = { LIVE: 'live', PAPER: 'paper' } as const;
export type DaemonMode = (typeof DaemonMode)[keyof typeof DaemonMode];

export interface DaemonOptions {
  readonly config: DaemonConfig;
  /** The config file (named in messages; strategy module paths resolve against its folder). */
  readonly source: string;
  readonly baseDir: string;
  readonly mode: DaemonMode;
  readonly clock: Clock;
  readonly log: Logger;
  readonly session: BrokerSession;
  readonly strategies: StrategyLookup;
  readonly knownStrategies?: () => readonly string[];
  /**
   * Called with the engine as soon as it is built, before it loads state or reconciles (tests and
   * the bench observe the bus from its first event).
   */
  readonly onEngine?: (engine: Engine) => void;
  /** Store to use instead of the config's URL (tests share one across restarts). */
  readonly store?: Store;
  /** Where the status display writes (default stdout); null: no display. */
  readonly out?: NodeJS.WritableStream | null;
  /** Label of the status line, e.g. `paper x60`. */
  readonly label?: string;
  /**
   * Market ms per real ms (paper at speed > 1): alert and staleness thresholds, which are meant in
   * a person's seconds, are multiplied by it. Default 1.
   */
  readonly timeScale?: number;
  /** Receives every tick-to-order latency sample, seconds (the bench); the histogram gets them too. */
  readonly latencySink?: LatencySink;
  /** Whether the market is open at a time (health: stale ticks). */
  readonly marketOpen?: (ts: number) => boolean;
  /** The next session open after a time (the calendar); default 09:15 IST the next day. */
  readonly nextSessionOpen?: NextSessionOpen;
  /** Paper with an embedded simulator: the account's opening cash (said at start with the limits). */
  readonly paperCapital?: Paise;
}

export type DaemonState = 'new' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

export class Daemon {
  readonly metrics = new DaemonMetrics();
  readonly stats = new SessionStats();
  readonly health: HealthTracker;
  readonly alerter: Alerter;
  private readonly o: DaemonOptions;
  private readonly log: Logger;
  private store: Store | undefined;
  private ownsStore = false;
  private engine: Engine | undefined;
  /** The instruments the daemon loaded: `ctl status` shows symbols beside scrip codes. */
  private instrumentTable: InstrumentTable | undefined;
  private recorder: EventRecorder | undefined;
  /** The recording's header, once the engine has reconciled (the funds at start are known then). */
  private header: ReturnType<typeof headerProvider> | undefined;
  private ops: OpsServer | undefined;
  private feedSub: Subscription | undefined;
  private circuits: CircuitBands | undefined;
  private chains: OptionChainService | undefined;
  private sessionTimer: TimerHandle | undefined;
  private sessionClose: SessionClose | undefined;
  private statsTimer: NodeJS.Timeout | undefined;
  private checkpointTimer: NodeJS.Timeout | undefined;
  private stateValue: DaemonState = 'new';
  private stopping: Promise<void> | undefined;
  private observers: DaemonObservers | undefined;
  private offReconnect: (() => void) | undefined;
  private opsPort: number | undefined;
  private readonly stoppedPromise: Promise<void>;
  private resolveStopped!: () => void;

  constructor(options: DaemonOptions) {
    this.o = options;
    this.log = options.log;
    const c = options.config;
    const scale = options.timeScale ?? 1;
    this.health = new HealthTracker({
      clock: options.clock,
      staleTickMs: 60_000 * scale,
      critical: (source) => source.startsWith('venue:') || source === 'ws:orders',
      tradingState: () => this.engine?.tradingState(),
      ...(options.marketOpen ? { marketOpen: options.marketOpen } : {}),
      storeState: () => (this.store instanceof RedisStore ? this.store.connectionState : 'ready'),
      streams: () => options.session.stats().streams,
      extra: () => ({ mode: options.mode, daemon: this.stateValue }),
    });
    this.alerter = new Alerter({
      clock: options.clock,
      log: options.log,
      disconnectAlertMs: c.alerts.disconnectAfterSeconds * 1000 * scale,
      reconnects: { count: c.alerts.reconnects.count, windowMs: c.alerts.reconnects.windowSeconds * 1000 * scale },
      ...(c.alerts.webhook ? { webhook: new WebhookNotifier({ url: c.alerts.webhook, log: options.log }) } : {}),
      publish: (a) => (this.engine ? this.engine.bus.publish(a) : this.alerter.observe(a)),
    });
    this.stoppedPromise = new Promise((r) => (this.resolveStopped = r));
  }

  get state(): DaemonState {
    return this.stateValue;
  }

  /** Resolves once the daemon has stopped (by `stop`, a signal handler or a fatal error). */
  get stopped(): Promise<void> {
    return this.stoppedPromise;
  }

  /** Port of the ops endpoint, once started. */
  get port(): number | undefined {
    return this.opsPort;
  }

  /** Where this daemon records the bus (when recording is on). */
  get recordingDir(): string | undefined {
    return this.recorder ? (this.o.config.recording.dir ?? join(this.o.config.stateDir, 'recordings')) : undefined;
  }

  /** The engine, once built (tests read its order state machine, portfolio and bus). */
  get engineHandle(): Engine | undefined {
    return this.engine;
  }

  async start(): Promise<void> {
    if (this.stateValue !== 'new') throw new Error(`daemon: start() called in state ${this.stateValue}`);
    this.stateValue = 'starting';
    const { config: c, clock, session } = this.o;
    try {
      this.store = this.o.store ?? createStore(c.store, { prefix: c.storePrefix, log: this.log });
      this.ownsStore = this.o.store === undefined;
      if (this.store instanceof RedisStore) {
        // State is needed for reconciliation: refuse to start blind rather than double an order.
        await this.store.ready(10_000);
      }
      if (c.recording.enabled) {
        this.recorder = new EventRecorder({ dir: c.recording.dir ?? join(c.stateDir, 'recordings'), log: this.log, header: () => this.header?.() });
      }

      try {
        await session.login();
      } catch (e) {
        // A blocked token generation (wrong TOTP, clock drift, lockout) needs a person: say so loudly.
        if ((e as { code?: unknown }).code === 'BROKER_TOKEN_GENERATION_BLOCKED') {
          this.alerter.raise('critical', AlertCode.TOTP_LOCKOUT, `cannot log in: ${describeError(e)}`);
        }
        throw e;
      }
      const list = await session.instruments();
      const table = new InstrumentTable(list);
      this.instrumentTable = table;
      this.log.info({ instruments: table.size }, 'daemon: instrument master loaded');
      const specs = await loadStrategySpecs(c.strategies, {
        lookup: this.o.strategies,
        symbols: symbolIndex(list),
        baseDir: this.o.baseDir,
        source: this.o.source,
        ...(this.o.knownStrategies ? { known: this.o.knownStrategies } : {}),
      });

      const prepared = prepareStrategies(specs, table);
      if (needsDerivatives(prepared) && !session.sources.includes('fno')) {
        // Option strategies trade contracts of the F&O master: lot and tick sizes, risk checks.
        for (const i of await session.instruments(['fno'])) table.add(i);
        this.log.info({ instruments: table.size }, 'daemon: F&O instrument master loaded for option strategies');
      }

      const engine = await Engine.create({
        clock,
        // Stamps each new order as it goes to the HTTP client: where tick-to-order latency ends.
        venue: new SendStampingVenue(session.venue, (tag) => this.observers?.orderSent(tag)),
        instruments: table,
        store: this.store,
        log: this.log,
        strategies: prepared.specs,
        risk: c.risk,
        execution: c.execution,
        // The broker's book names each order's strategy: a flushed store still adopts them rightly.
        strategyKeysInTags: true,
        ...(c.shutdown.intradayExitAt !== undefined ? { intradayExitAt: c.shutdown.intradayExitAt } : {}),
      });
      this.engine = engine;
      this.sessionClose = new SessionClose({ clock, store: this.store, log: this.log, nextOpen: this.o.nextSessionOpen ?? nextDayOpen });
      this.o.onEngine?.(engine);
      this.attachObservers(engine, table);

      let start: StartState | undefined;
      await engine.start({ beforeStrategies: async () => void (start = await captureStartState(engine, this.log)) });
      await this.sessionClose.restore(engine);
      await this.reconcileDay(engine, false);
      const warmup = await warmUpFromHistory(engine, session, clock, this.log);
      this.header = headerProvider({ mode: this.o.mode, config: c, baseDir: this.o.baseDir, engine, specs, instruments: table, warmup, start: start! }, this.log);
      this.health.markReconciled();
      this.health.setTradingState(engine.tradingState());
      this.metrics.setTradingState(engine.tradingState());
      this.log.info({ tradingState: engine.tradingState() }, 'daemon: state loaded and reconciled with the broker');
      // Before any market data: a config still written in paise (before 2026-11) loads with every
      // limit 100x too loose, and this line is where a person sees it.
      reportRiskLimits({ view: engine.riskView(), tradingState: engine.tradingState(), paperCapital: this.o.paperCapital }, this.log, (message, context) =>
        this.alerter.raise('warn', IMPLAUSIBLE_LIMIT, message, context),
      );

      if (this.store instanceof RedisStore) {
        const store = this.store;
        const offReconnect = store.onReconnect(() => {
          this.metrics.reconnects.inc({ connection: 'store' });
          // The server may have restarted empty: write everything we hold again.
          void repersist({ engine, store, stats: this.stats, clock, log: this.log });
        });
        // Health and alerts follow the store like any connection (STORE_DISCONNECTED when it stays down).
        const offState = store.onConnectionState((state) => {
          if (state === 'ready' || state === 'reconnecting') engine.bus.publish(storeLifecycle(state, clock.now()));
        });
        this.offReconnect = () => (offReconnect(), offState());
      }

      this.feedSub = session.feed.events$.subscribe({
        next: (e) => (e.type === 'tick' ? this.onTick(e) : engine.bus.publish(e)),
        error: (e: unknown) => this.log.error({ err: e }, 'daemon: market data feed failed'),
      });
      await session.feed.subscribe(engine.instruments);
      this.log.info({ instruments: engine.instruments.length }, 'daemon: subscribed to market data');

      if (c.circuits.enabled) {
        this.circuits = new CircuitBands({
          clock,
          log: this.log,
          quotes: (codes) => session.circuitBands(codes),
          setCircuit: (i, band) => engine.setCircuit(i, band),
          refreshMs: c.circuits.refreshSeconds * 1000,
        });
        await this.circuits.start(engine.instruments);
      }
      if (prepared.chains.length > 0) {
        const circuits = this.circuits;
        this.chains = new OptionChainService({
          clock,
          log: this.log,
          source: session.options,
          instruments: table,
          needs: prepared.chains,
          subscribe: (legs) => {
            session.feed.subscribe(legs).catch((e: unknown) => this.log.error({ err: e }, 'daemon: subscribing option legs failed'));
            circuits?.add(legs);
          },
        });
        this.chains.start();
        this.log.info({ needs: prepared.chains.length }, 'daemon: option chains declared by strategies are being kept current');
      }

      if (c.ops.enabled) await this.startOps();
      this.scheduleSessionEnd();
      this.statsTimer = setInterval(() => this.observers?.pollBroker(session.stats()), 1000);
      this.statsTimer.unref();
      // Strategy state is otherwise saved only at stop: checkpoint so a crash loses seconds, not a day.
      let checkpointing = false;
      this.checkpointTimer = setInterval(() => {
        if (checkpointing || this.stateValue !== 'running') return;
        checkpointing = true;
        engine
          .checkpoint()
          .catch((e: unknown) => this.log.error({ err: e }, 'daemon: checkpoint failed'))
          .finally(() => (checkpointing = false));
      }, c.checkpointSeconds * 1000);
      this.checkpointTimer.unref();
      this.observers?.display?.start();
      this.stateValue = 'running';
      engine.bus.publish({ type: 'lifecycle', ts: clock.now(), phase: 'started', source: 'daemon', detail: this.o.mode });
    } catch (e) {
      this.stateValue = 'failed';
      await this.teardown().catch((err: unknown) => this.log.error({ err }, 'daemon: cleanup after a failed start also failed'));
      this.resolveStopped();
      throw e;
    }
  }

  /** Clean stop; `action` overrides the configured shutdown action. Idempotent. */
  stop(reason = 'stop requested', action?: ShutdownAction): Promise<void> {
    this.stopping ??= this.doStop(reason, action ?? this.o.config.shutdown.onStop);
    return this.stopping;
  }

  private async doStop(reason: string, action: ShutdownAction): Promise<void> {
    if (this.stateValue === 'new' || this.stateValue === 'stopped' || this.stateValue === 'failed') {
      this.stateValue = 'stopped';
      this.resolveStopped();
      return;
    }
    this.stateValue = 'stopping';
    const timeoutMs = this.o.config.shutdown.timeoutSeconds * 1000;
    this.log.info({ reason, action }, 'daemon: stopping');
    const engine = this.engine;
    try {
      engine?.bus.publish({ type: 'lifecycle', ts: this.o.clock.now(), phase: 'stopping', source: 'daemon', detail: reason });
      this.sessionTimer?.cancel();
      this.chains?.stop();
      this.circuits?.stop();
      // No new ticks: strategies stop deciding while the shutdown action runs.
      this.feedSub?.unsubscribe();
      this.feedSub = undefined;
      if (engine) await this.runAction(engine, action, `shutdown: ${reason}`, timeoutMs);
      await engine?.stop();
      engine?.bus.publish({ type: 'lifecycle', ts: this.o.clock.now(), phase: 'stopped', source: 'daemon', detail: reason });
    } catch (e) {
      this.log.error({ err: e }, 'daemon: error while stopping; state was persisted as far as possible');
      this.alerter.raise('critical', AlertCode.SHUTDOWN_INCOMPLETE, `shutdown incomplete: ${describeError(e)}`);
    } finally {
      await this.teardown();
      this.stateValue = 'stopped';
      this.resolveStopped();
      this.log.info('daemon: stopped');
    }
  }

  /** The day's charges for the summary (day-charges.ts), when the session's fills came without theirs. */
  private async accountCharges(): Promise<Paise | undefined> {
    const stats = this.stats.snapshot();
    if (!this.observers?.display || stats.fills === 0 || stats.chargedFills === stats.fills) return undefined;
    return dayCharges(this.o.session.venue, this.log);
  }

  private async runAction(engine: Engine, action: ShutdownAction, reason: string, timeoutMs: number): Promise<void> {
    if (action === 'cancel') await engine.cancelAll(reason, timeoutMs);
    else if (action === 'flatten') await engine.flatten(reason, timeoutMs);
  }

  private async teardown(): Promise<void> {
    clearInterval(this.statsTimer);
    clearInterval(this.checkpointTimer);
    this.sessionTimer?.cancel();
    this.sessionClose?.stop();
    this.chains?.stop();
    this.circuits?.stop();
    this.feedSub?.unsubscribe();
    this.offReconnect?.();
    this.observers?.display?.stop(await this.accountCharges());
    const steps: Array<[string, () => Promise<void> | undefined]> = [
      ['ops endpoint', () => this.ops?.stop()],
      ['broker session', () => this.o.session.close()],
      ['alerts', () => this.alerter.stop()],
      ['recording', () => this.recorder?.stop()],
      ['store', () => (this.ownsStore ? this.store?.close() : undefined)],
    ];
    for (const [what, step] of steps) {
      try {
        await step();
      } catch (e) {
        this.log.error({ err: e }, `daemon: closing the ${what} failed`);
      }
    }
  }

  private onTick(t: TickEvent): void {
    const engine = this.engine;
    if (engine) this.observers?.tick(engine, t);
  }

  private attachObservers(engine: Engine, table: InstrumentTable): void {
    const c = this.o.config;
    const display = this.o.out === null ? undefined : { out: this.o.out, label: this.o.label ?? this.o.mode, intervalMs: c.statusIntervalMs, clock: this.o.clock, instruments: table };
    const observers = { metrics: this.metrics, stats: this.stats, health: this.health, alerter: this.alerter, recorder: this.recorder, recordTicks: c.recording.ticks, latencySink: this.o.latencySink, feed: this.o.session.feed };
    this.observers = new DaemonObservers(observers, display);
    this.observers.attach(engine);
  }

  private async startOps(): Promise<void> {
    const o = {
      config: this.o.config, log: this.log, metrics: this.metrics, health: () => this.health.report(), status: () => this.status(), engine: () => this.requireEngine(),
      // `ctl flatten` closes trading until the next session like the session-end flatten; `ctl resume` ends that.
      closeSession: (why: string) => this.sessionClose?.close(this.requireEngine(), why) ?? Promise.resolve(),
      reopenSession: () => this.sessionClose?.clear() ?? Promise.resolve(),
    };
    this.ops = createOpsServer(o);
    this.opsPort = await this.ops.start();
  }

  /** The `tarang ctl status` answer. */
  status(): Record<string, unknown> {
    const s = this.stats.snapshot();
    const h = this.health.report();
    return {
      mode: this.o.mode,
      daemon: this.stateValue,
      health: h.status,
      tradingState: this.engine?.tradingState() ?? h.tradingState,
      reconciled: h.reconciled,
      clock: formatIst(this.o.clock.now()),
      ticks: s.ticks,
      orders: s.orders,
      openOrders: s.openOrders,
      fills: s.fills,
      denials: s.denials,
      pnlPaise: s.pnl,
      positions: s.positions.map((p) => ({ ...p, symbol: this.instrumentTable?.get(p.instrument)?.tradingSymbol ?? null })),
      connections: h.connections,
      ...(this.engine ? { engine: this.engine.summary() } : {}),
    };
  }

  private requireEngine(): Engine {
    if (!this.engine || this.stateValue !== 'running') throw new Error(`daemon is ${this.stateValue}, not running`);
    return this.engine;
  }

  /**
   * At the configured session end, every day: run the configured action once (then keep running,
   * halted or not), then the daily reconcile (see `reconcileDay`).
   */
  private scheduleSessionEnd(): void {
    const c = this.o.config.shutdown;
    const now = this.o.clock.now();
    let at = istDateTime(istDate(now), c.sessionEnd);
    if (at <= now) at = istDateTime(istDate(now + 86_400_000), c.sessionEnd);
    this.sessionTimer = this.o.clock.setTimeout(() => {
      const engine = this.engine;
      if (!engine || this.stateValue !== 'running') return;
      this.log.info({ action: c.atSessionEnd }, 'daemon: session end');
      engine.bus.publish({ type: 'lifecycle', ts: this.o.clock.now(), phase: 'session_close', source: 'daemon', detail: c.atSessionEnd });
      // A flatten closes trading until the next session: strategies must not buy straight back in.
      const closing = c.atSessionEnd === 'flatten' ? this.sessionClose?.close(engine, 'session-end flatten') : undefined;
      void Promise.resolve(closing)
        .then(() => this.runAction(engine, c.atSessionEnd, 'session end', c.timeoutSeconds * 1000))
        .catch((e: unknown) => this.log.error({ err: e }, 'daemon: session-end action failed'))
        .then(() => this.reconcileDay(engine, true))
        .finally(() => {
          if (this.stateValue === 'running') this.scheduleSessionEnd();
        });
    }, at - now);
  }

  /**
   * The daily reconcile: the engine reads the broker's book again, then lets go of what finished
   * orders of earlier days leave behind (journal entries in the store, finished orders in memory),
   * and the session figures drop finished orders of earlier days too, so a daemon running for
   * days stays flat. After start it runs without a second book read (start has just read it).
   */
  private async reconcileDay(engine: Engine, readBook: boolean): Promise<void> {
    try {
      const r = await engine.reconcileDay({ readBook });
      const dropped = this.stats.forgetFinished();
      this.log.info({ ...r, statsDropped: dropped }, 'daemon: daily reconcile');
    } catch (e) {
      this.log.error({ err: e }, 'daemon: daily reconcile failed; trying again at the next session end');
    }
  }
}
