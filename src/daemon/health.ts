/**
 * What `/health` reports, kept current from the bus: each connection's state (from `lifecycle`
 * connected/disconnected by source, stalled from the typed cause until frames flow again), each
 * WebSocket stream read from the broker session (prices shards and the order stream: connected,
 * stalled, last frame age), the store's state, the last tick's arrival, whether start-up
 * reconciliation finished, and the trading state. `report()` folds them into ok / degraded / down:
 * - down: not reconciled yet, or the order-update stream is down or stalled (orders could go unseen);
 * - degraded: a market-data stream is down or stalled, ticks are stale while the market is open,
 *   the store is reconnecting, or trading is halted;
 * - ok otherwise.
 */
import type { Clock } from '../core/clock.js';
import type { TradingState } from '../core/enums.js';
import type { Event } from '../core/events.js';
import type { HealthReport, HealthStatus } from '../adapters/ops/server.js';
import type { StreamHealth } from './parts.js';

export interface HealthTrackerOptions {
  readonly clock: Clock;
  /** Ticks older than this (clock ms) during market hours make the report degraded. Default 60 s. */
  readonly staleTickMs?: number;
  /** Whether the market is open now (stale ticks only matter then). */
  readonly marketOpen?: (ts: number) => boolean;
  /** Sources and streams whose loss or stall makes the daemon `down` (orders could go unseen). Default: names containing `order`. */
  readonly critical?: (source: string) => boolean;
  /** Extra fields for the report (store state, strategies, counts). */
  readonly extra?: () => Record<string, unknown>;
  /** The trading state at the source (the risk engine); else it is followed from `trading-state` events. */
  readonly tradingState?: () => TradingState | undefined;
  /** Store connection state, when the store has one. */
  readonly storeState?: () => string;
  /** Each WebSocket stream now (the broker session's view). */
  readonly streams?: () => readonly StreamHealth[];
}

export class HealthTracker {
  private readonly conns = new Map<string, { connected: boolean; since: number; stalled: boolean }>();
  private lastTickAt: number | undefined;
  private reconciledFlag = false;
  private tradingState: TradingState = 'active';
  private readonly staleTickMs: number;

  constructor(private readonly o: HealthTrackerOptions) {
    this.staleTickMs = o.staleTickMs ?? 60_000;
  }

  get reconciled(): boolean {
    return this.reconciledFlag;
  }

  get state(): TradingState {
    return this.o.tradingState?.() ?? this.tradingState;
  }

  /** Marks reconciliation done (the daemon calls it once the engine has reconciled). */
  markReconciled(): void {
    this.reconciledFlag = true;
  }

  setTradingState(state: TradingState): void {
    this.tradingState = state;
  }

  observe(e: Event): void {
    if (e.type === 'tick') {
      this.lastTickAt = this.o.clock.now();
      return;
    }
    if (e.type === 'trading-state') {
      this.tradingState = e.to;
      return;
    }
    if (e.type !== 'lifecycle') return;
    switch (e.phase) {
      case 'connected': {
        // A reconnect alone does not end a stall: only frames flowing again do.
        const stalled = e.cause !== 'flowing' && (this.conns.get(e.source)?.stalled ?? false);
        const prev = this.conns.get(e.source);
        this.conns.set(e.source, { connected: true, since: prev?.connected ? prev.since : e.ts, stalled });
        return;
      }
      case 'disconnected': {
        const prev = this.conns.get(e.source);
        const stalled = e.cause === 'stalled' || (prev?.stalled ?? false);
        this.conns.set(e.source, { connected: false, since: prev?.connected === false ? prev.since : e.ts, stalled });
        return;
      }
      case 'reconciled':
        this.reconciledFlag = true;
        return;
      default:
        return;
    }
  }

  report(): HealthReport {
    const now = this.o.clock.now();
    const connections: Record<string, { connected: boolean; downSinceMs?: number; stalled?: true }> = {};
    let criticalDown = false;
    let anyDown = false;
    const critical = this.o.critical ?? ((s: string) => s.includes('order'));
    const lost = (source: string): void => {
      anyDown = true;
      if (critical(source)) criticalDown = true;
    };
    for (const [source, c] of this.conns) {
      connections[source] = { ...(c.connected ? { connected: true } : { connected: false, downSinceMs: now - c.since }), ...(c.stalled ? { stalled: true as const } : {}) };
      if (!c.connected || c.stalled) lost(source);
    }
    const streams: Record<string, { connected: boolean; stalled: boolean; lastFrameAgeMs: number | null }> = {};
    for (const st of this.o.streams?.() ?? []) {
      streams[st.name] = { connected: st.connected, stalled: st.stalled, lastFrameAgeMs: st.lastFrameAt === undefined ? null : now - st.lastFrameAt };
      if (!st.connected || st.stalled) lost(st.name);
    }
    const age = this.lastTickAt === undefined ? null : now - this.lastTickAt;
    const open = this.o.marketOpen?.(now) ?? true;
    const stale = open && (age === null ? false : age > this.staleTickMs);
    const store = this.o.storeState?.();
    let status: HealthStatus = 'ok';
    const trading = this.state;
    if (!this.reconciledFlag || criticalDown) status = 'down';
    else if (anyDown || stale || trading === 'halted' || (store !== undefined && store !== 'ready')) status = 'degraded';
    return {
      status,
      tradingState: trading,
      reconciled: this.reconciledFlag,
      connections,
      ...(this.o.streams ? { streams } : {}),
      lastTickAgeMs: age,
      ...(store !== undefined ? { store } : {}),
      ...this.o.extra?.(),
    };
  }
}
