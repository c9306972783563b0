/**
 * Builds the engine (src/engine/engine.ts) for the daemon: the same assembly as backtests, over
 * the broker venue, behind the daemon's `EngineHandle` seam.
 */
import type { EventBus } from '../core/bus/event-bus.js';
import { Engine } from '../engine/engine.js';
import type { CandleEvent, TickEvent } from '../core/events.js';
import type { Interval } from '../core/candles.js';
import type { CircuitBand } from '../risk/types.js';
import type { RiskConfig } from '../risk/config.js';
import type { Paise } from '../core/money.js';
import type { EngineFactoryInput } from './daemon.js';
import type { EngineHandle } from './parts.js';
import type { DayReconcileResult } from '../adapters/execution/execution-engine.js';

export async function createDaemonEngine(input: EngineFactoryInput): Promise<EngineHandle> {
  const engine = await Engine.create({
    clock: input.clock,
    venue: input.session.venue,
    instruments: input.instruments,
    store: input.store,
    log: input.log,
    strategies: input.strategies,
    risk: input.config.risk,
    execution: input.config.execution,
  });
  return new DaemonEngine(engine);
}

/** Delegates to the engine; `engine` is public for tests and the bench. */
export class DaemonEngine implements EngineHandle {
  constructor(readonly engine: Engine) {}

  get bus(): EventBus {
    return this.engine.bus;
  }

  get instruments(): readonly string[] {
    return this.engine.instruments;
  }

  start(): Promise<void> {
    return this.engine.start();
  }

  publishTick(tick: TickEvent): void {
    this.engine.publishTick(tick);
  }

  tradingState(): string {
    return this.engine.tradingState();
  }

  halt(reason: string): void {
    this.engine.halt(reason);
  }

  resume(): void {
    this.engine.resume();
  }

  cancelAll(reason: string, timeoutMs: number): Promise<void> {
    return this.engine.cancelAll(reason, timeoutMs);
  }

  flatten(reason: string, timeoutMs: number): Promise<void> {
    return this.engine.flatten(reason, timeoutMs);
  }

  checkpoint(): Promise<void> {
    return this.engine.checkpoint();
  }

  persist(): Promise<void> {
    return this.engine.persist();
  }

  stop(): Promise<void> {
    return this.engine.stop();
  }

  warmupNeeds(): Array<{ instrument: string; interval: Interval; count: number }> {
    const need = new Map<string, { instrument: string; interval: Interval; count: number }>();
    for (const r of this.engine.runners) {
      const w = r.strategy.warmup ?? 0;
      if (w <= 0) continue;
      for (const instrument of r.strategy.instruments) {
        for (const interval of r.strategy.intervals ?? []) {
          const k = `${instrument}|${interval}`;
          const cur = need.get(k);
          if (!cur || cur.count < w) need.set(k, { instrument, interval, count: w });
        }
      }
    }
    return [...need.values()];
  }

  feedWarmup(candles: readonly CandleEvent[]): void {
    this.engine.feedWarmup(candles);
  }

  reconcileDay(options: { readonly readBook: boolean }): Promise<DayReconcileResult> {
    return this.engine.execution.reconcileDay(options);
  }

  orderTags(): readonly string[] {
    return this.engine.orders.all().map((o) => o.tag);
  }

  summary(): Record<string, unknown> {
    return this.engine.summary();
  }

  riskView(): { readonly config: RiskConfig; readonly killSwitch: boolean; readonly availableFunds: Paise | undefined } {
    return { config: this.engine.risk.config, killSwitch: this.engine.risk.killSwitch(), availableFunds: this.engine.execution.availableFunds() };
  }

  setCircuit(instrument: string, band: CircuitBand | undefined): void {
    this.engine.risk.setCircuit(instrument, band);
  }
}
