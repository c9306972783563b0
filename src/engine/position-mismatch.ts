/**
 * A position mismatch is an incident, not a warning. After each reconcile the reconciler compares
 * the broker's positions (per instrument and product) with tarang's fills; when they differ the
 * instrument is held to reducing-only in risk (`hold`, the default) or all trading halts (`halt`),
 * one critical POSITION_MISMATCH alert gives both views, and the books are read again every
 * `recheckMs` until they agree: then the hold is released (a halt this incident caused is lifted
 * back to the state before it) and one POSITION_MISMATCH_RESOLVED alert says so.
 */
import type { EventBus } from '../core/bus/event-bus.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { PositionDiff } from '../adapters/execution/reconciler.js';
import type { RiskEngine } from '../risk/risk-engine.js';
import type { TradingState } from '../risk/config.js';

export class PositionMismatch {
  /** Instruments in an open incident, with the differences that opened it. */
  private readonly open = new Map<string, readonly PositionDiff[]>();
  private haltedFrom: TradingState | undefined;
  private timer: TimerHandle | undefined;

  constructor(
    private readonly o: {
      readonly clock: Clock;
      readonly bus: EventBus;
      readonly risk: RiskEngine;
      readonly mode: 'hold' | 'halt';
      readonly recheckMs: number;
      readonly reread: () => Promise<unknown>;
      readonly log: Logger;
    },
  ) {}

  /** The differences of one position check (empty: the books agree). */
  onCheck(diffs: readonly PositionDiff[]): void {
    const now = this.o.clock.now();
    const by = new Map<string, PositionDiff[]>();
    for (const d of diffs) {
      const list = by.get(d.instrument) ?? [];
      list.push(d);
      by.set(d.instrument, list);
    }
    const fresh = [...by].filter(([i]) => !this.open.has(i));
    for (const [instrument, list] of fresh) {
      this.open.set(instrument, list);
      const views = list.map((d) => `${d.product}: broker ${d.venue}, tarang ${d.ours}`).join('; ');
      const brokerNet = list.reduce((n, d) => n + d.venue, 0);
      this.o.risk.hold(instrument, `its position differs from the broker's (${views})`, brokerNet);
      this.o.bus.publish({
        type: 'alert', ts: now, level: 'critical', code: 'POSITION_MISMATCH',
        message: `${instrument}: position differs from the broker's (${views}); ${this.o.mode === 'halt' ? 'trading halted' : 'no new entries there'} until the books agree`,
        context: { instrument, diffs: list },
      });
    }
    if (fresh.length > 0 && this.o.mode === 'halt' && this.haltedFrom === undefined && this.o.risk.tradingState() !== 'halted') {
      this.haltedFrom = this.o.risk.tradingState();
      this.o.risk.setTradingState('halted', 'position mismatch');
    }
    for (const [instrument] of [...this.open]) {
      if (by.has(instrument)) continue;
      this.open.delete(instrument);
      this.o.risk.release(instrument);
      this.o.bus.publish({ type: 'alert', ts: now, level: 'info', code: 'POSITION_MISMATCH_RESOLVED', message: `${instrument}: position agrees with the broker again; trading there resumes`, context: { instrument } });
    }
    if (this.open.size === 0 && this.haltedFrom !== undefined) {
      // Only a halt this incident caused is lifted; one set since (operator, kill switch) stays.
      if (this.o.risk.tradingState() === 'halted' && !this.o.risk.killSwitch()) this.o.risk.setTradingState(this.haltedFrom, 'positions agree with the broker again');
      this.haltedFrom = undefined;
    }
    this.schedule();
  }

  /** Instruments in an open incident. */
  instruments(): string[] {
    return [...this.open.keys()];
  }

  stop(): void {
    this.timer?.cancel();
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.open.size === 0 || this.timer) return;
    this.timer = this.o.clock.setTimeout(() => {
      this.timer = undefined;
      void this.o.reread().catch((err: unknown) => this.o.log.warn({ err }, 'engine: re-reading the books after a position mismatch failed')).finally(() => this.schedule());
    }, this.o.recheckMs);
  }
}
