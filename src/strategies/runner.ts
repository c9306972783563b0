/**
 * The safe runner: drives one strategy's hooks and isolates its failures. A hook that throws is
 * logged, the strategy is paused (no more hooks, no more intents) and a `strategy_paused`
 * lifecycle event and a warning alert are published; the engine and the other strategies carry
 * on. A paused strategy's working orders are left as they are (the operator decides; `resume()`
 * lets it run again).
 *
 * Warm-up: the first `warmup` candles of each declared (instrument, interval) are warm-up; while
 * any series is still short, `ctx.warmingUp` is true and intents are denied (STRATEGY_NOT_READY).
 */
import type { CandleEvent, FillEvent, OrderSnapshot, PositionEvent, TickEvent } from '../core/events.js';
import { DenialCode, LifecyclePhase } from '../core/events.js';
import type { EventBus } from '../core/bus/event-bus.js';
import type { Intent, PlaceIntent } from '../core/intents.js';
import type { InstrumentLookup } from '../core/instruments.js';
import type { Logger } from '../core/log.js';
import { describeError } from '../core/errors.js';
import type { JsonValue } from '../core/store.js';
import type { ClockView, IntentDraft, OrderOptions, OrdersView, PortfolioView, Strategy, StrategyContext } from './strategy.js';
import type { Product, Side } from '../core/enums.js';

export interface RunnerDeps {
  readonly bus: EventBus;
  readonly clock: ClockView;
  readonly portfolio: PortfolioView;
  readonly orders: OrdersView;
  readonly instruments: InstrumentLookup;
  readonly log: Logger;
  readonly state: { [key: string]: JsonValue };
  /** Mints the next client tag. */
  readonly newTag: () => string;
}

export class StrategyRunner {
  readonly ctx: StrategyContext;
  private pausedReason: string | undefined;
  private readonly counts = new Map<string, number>();
  private short: number;
  private readonly warmup: number;
  private readonly deps: RunnerDeps;
  private warmingUp: boolean;

  constructor(
    readonly id: string,
    readonly strategy: Strategy,
    deps: RunnerDeps,
  ) {
    this.deps = deps;
    this.warmup = strategy.warmup ?? 0;
    if (!Number.isSafeInteger(this.warmup) || this.warmup < 0) throw new RangeError(`strategy ${id}: warmup must be a whole number >= 0, got ${strategy.warmup}`);
    const series = strategy.instruments.length * (strategy.intervals?.length ?? 0);
    this.short = this.warmup > 0 ? series : 0;
    this.warmingUp = this.short > 0;
    for (const i of strategy.instruments) for (const iv of strategy.intervals ?? []) this.counts.set(`${i}|${iv}`, 0);
    const isWarmingUp = (): boolean => this.warmingUp;
    this.ctx = {
      id,
      clock: deps.clock,
      portfolio: deps.portfolio,
      orders: deps.orders,
      instruments: deps.instruments,
      log: deps.log,
      state: deps.state,
      get warmingUp() {
        return isWarmingUp();
      },
      submit: (d) => this.submit(d),
      buy: (i, q, o) => this.placeIntent('BUY', i, q, o),
      sell: (i, q, o) => this.placeIntent('SELL', i, q, o),
      exit: (i, product?: Product) => this.submit({ kind: 'exit', instrument: i, ...(product ? { product } : {}) }),
      cancel: (tag) => this.submit({ kind: 'cancel', target: tag }),
    };
  }

  get paused(): boolean {
    return this.pausedReason !== undefined;
  }

  get pauseReason(): string | undefined {
    return this.pausedReason;
  }

  /** Lets a paused strategy run again (operator action). */
  resume(): void {
    this.pausedReason = undefined;
  }

  // Each hook is called inside its own try/catch rather than through a closure: no allocation per
  // event on the hot path.

  start(): void {
    if (!this.strategy.onStart) return;
    try {
      this.strategy.onStart(this.ctx);
    } catch (err) {
      this.failed('onStart', err);
    }
  }

  stop(): void {
    if (!this.strategy.onStop) return;
    try {
      this.strategy.onStop(this.ctx);
    } catch (err) {
      this.failed('onStop', err);
    }
  }

  tick(t: TickEvent): void {
    if (!this.strategy.onTick || this.pausedReason !== undefined) return;
    try {
      this.strategy.onTick(t, this.ctx);
    } catch (err) {
      this.failed('onTick', err);
    }
  }

  /** A candle of a declared series (the engine routes only those). `warmupOnly` forces warm-up (history feed). */
  candle(c: CandleEvent, warmupOnly = false): void {
    if (this.short > 0) {
      const k = `${c.instrument}|${c.interval}`;
      const n = this.counts.get(k);
      if (n !== undefined && n < this.warmup) {
        this.counts.set(k, n + 1);
        if (n + 1 === this.warmup) this.short--;
      }
    }
    const was = this.warmingUp;
    // The candle that completes the last series is still a warm-up candle.
    this.warmingUp = warmupOnly || was;
    if (this.strategy.onCandle && this.pausedReason === undefined) {
      try {
        this.strategy.onCandle(c, this.ctx);
      } catch (err) {
        this.failed('onCandle', err);
      }
    }
    this.warmingUp = this.short > 0;
  }

  order(o: OrderSnapshot): void {
    if (!this.strategy.onOrder || this.pausedReason !== undefined) return;
    try {
      this.strategy.onOrder(o, this.ctx);
    } catch (err) {
      this.failed('onOrder', err);
    }
  }

  fill(f: FillEvent): void {
    if (!this.strategy.onFill || this.pausedReason !== undefined) return;
    try {
      this.strategy.onFill(f, this.ctx);
    } catch (err) {
      this.failed('onFill', err);
    }
  }

  position(p: PositionEvent): void {
    if (!this.strategy.onPosition || this.pausedReason !== undefined) return;
    try {
      this.strategy.onPosition(p, this.ctx);
    } catch (err) {
      this.failed('onPosition', err);
    }
  }

  private submit(d: IntentDraft): string {
    const id = this.deps.newTag();
    // Object.assign, not `{ ...d, id }`: on Node 20 spread-then-add costs microseconds per call.
    return this.send(Object.assign({ id, strategyId: this.id }, d) as Intent);
  }

  /**
   * `buy`/`sell`: the place intent built whole, in submit's field order (id, strategyId, then the
   * draft's), prices set only when given: no draft copied into it, no conditional spreads.
   */
  private placeIntent(side: Side, instrument: string, qty: number, o: OrderOptions = {}): string {
    const intent: { -readonly [K in keyof PlaceIntent]: PlaceIntent[K] } = {
      id: this.deps.newTag(),
      strategyId: this.id,
      kind: 'place',
      instrument,
      side,
      qty,
      orderType: o.triggerPrice !== undefined ? 'STOP_LOSS' : o.limitPrice !== undefined ? 'LIMIT' : 'MARKET',
      validity: o.validity ?? 'DAY',
      product: o.product ?? 'INTRADAY',
    };
    if (o.limitPrice !== undefined) intent.limitPrice = o.limitPrice;
    if (o.triggerPrice !== undefined) intent.triggerPrice = o.triggerPrice;
    return this.send(intent);
  }

  /** Publishes an intent (or its denial while paused or warming up); returns its id. */
  private send(intent: Intent): string {
    const id = intent.id;
    const ts = this.deps.clock.now();
    if (this.pausedReason !== undefined || this.warmingUp) {
      const reason = this.pausedReason !== undefined ? `strategy ${this.id} is paused: ${this.pausedReason}` : `strategy ${this.id} is warming up`;
      this.deps.bus.publish({ type: 'denied', ts, intent, code: DenialCode.STRATEGY_NOT_READY, reason });
      return id;
    }
    this.deps.bus.publish({ type: 'intent', ts, intent });
    return id;
  }

  private failed(hook: string, err: unknown): void {
    this.pausedReason = `${hook} threw: ${describeError(err)}`;
    this.deps.log.error({ err, strategy: this.id, hook }, 'strategy failed; paused (the engine and other strategies go on)');
    const ts = this.deps.clock.now();
    this.deps.bus.publish({ type: 'lifecycle', ts, phase: LifecyclePhase.STRATEGY_PAUSED, source: `strategy:${this.id}`, detail: this.pausedReason });
    this.deps.bus.publish({ type: 'alert', ts, level: 'warn', code: 'STRATEGY_PAUSED', message: `strategy ${this.id} paused: ${this.pausedReason}` });
  }

}
