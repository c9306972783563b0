/**
 * The daemon's Prometheus metrics (prom-client), on a registry of its own so that several daemons
 * in one process (tests) do not collide. Most counters follow the bus (`observe(event)`); the
 * adapter-level ones (429s, reconnects, REST latency) are fed by the daemon's wiring through the
 * named methods. Per-tick cost is one Map lookup and a counter increment.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Event } from '../../core/events.js';
import { isTerminalStatus, TradingState, type OrderStatus } from '../../core/enums.js';

/** Latency buckets in seconds, from 10 microseconds to 5 seconds. */
const LATENCY_BUCKETS = [1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Ended orders remembered so that a repeated final status is not counted again. */
const FINISHED_KEPT = 100_000;

export interface MetricsOptions {
  /** Prefix of every metric name. Default `tarang_`. */
  readonly prefix?: string;
  /** Collect process metrics (memory, CPU, event-loop lag). Default true. */
  readonly processMetrics?: boolean;
}

export class DaemonMetrics {
  readonly registry = new Registry();
  readonly ticks: Counter;
  readonly candles: Counter;
  readonly orders: Counter<'status'>;
  readonly fills: Counter;
  readonly denials: Counter<'code'>;
  readonly alerts: Counter<'code'>;
  readonly rateLimited: Counter<'api'>;
  readonly serverErrors: Counter<'api'>;
  readonly reconnects: Counter<'connection'>;
  readonly tickToOrder: Histogram;
  readonly restLatency: Histogram<'api'>;
  readonly openOrders: Gauge;
  readonly lastTickTs: Gauge;
  /** 1 for the current trading state, 0 for the others (from `trading-state` events and `setTradingState`). */
  readonly tradingState: Gauge<'state'>;
  /** Status of each open order (an order leaves it when it ends). */
  private readonly lastStatus = new Map<string, OrderStatus>();
  /** Tags of ended orders, the newest FINISHED_KEPT of them (a day's orders, many times over). */
  private readonly finished = new Set<string>();

  constructor(options: MetricsOptions = {}) {
    const p = options.prefix ?? 'tarang_';
    const registers = [this.registry];
    this.ticks = new Counter({ name: `${p}ticks_total`, help: 'Market data ticks received', registers });
    this.candles = new Counter({ name: `${p}candles_total`, help: 'Candles completed', registers });
    this.orders = new Counter({ name: `${p}orders_total`, help: 'Order state changes, by the new status', labelNames: ['status'], registers });
    this.fills = new Counter({ name: `${p}fills_total`, help: 'Fills (executions) received', registers });
    this.denials = new Counter({ name: `${p}denials_total`, help: 'Intents denied, by denial code', labelNames: ['code'], registers });
    this.alerts = new Counter({ name: `${p}alerts_total`, help: 'Operator alerts raised, by code', labelNames: ['code'], registers });
    this.rateLimited = new Counter({ name: `${p}http_429_total`, help: 'HTTP 429 answers from the broker', labelNames: ['api'], registers });
    this.serverErrors = new Counter({ name: `${p}http_5xx_total`, help: 'HTTP 5xx answers from the broker', labelNames: ['api'], registers });
    this.reconnects = new Counter({ name: `${p}reconnects_total`, help: 'Reconnects, by connection (ws:prices, ws:orders, store)', labelNames: ['connection'], registers });
    this.tickToOrder = new Histogram({ name: `${p}tick_to_order_seconds`, help: 'From the socket read carrying a tick to the order it caused being handed to the venue', buckets: LATENCY_BUCKETS, registers });
    this.restLatency = new Histogram({ name: `${p}rest_latency_seconds`, help: 'Broker REST round trips', labelNames: ['api'], buckets: LATENCY_BUCKETS, registers });
    this.openOrders = new Gauge({ name: `${p}open_orders`, help: 'Orders not yet in a terminal state', registers, collect: () => this.openOrders.set(this.open()) });
    this.lastTickTs = new Gauge({ name: `${p}last_tick_timestamp_seconds`, help: 'Event time of the last tick', registers });
    this.tradingState = new Gauge({ name: `${p}trading_state`, help: 'Trading state: 1 for the current one (active, reducing, halted)', labelNames: ['state'], registers });
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: p });
  }

  /** Updates the counters from one bus event. */
  observe(e: Event): void {
    switch (e.type) {
      case 'tick':
        this.ticks.inc();
        this.lastTickTs.set(e.ts / 1000);
        return;
      case 'candle':
        this.candles.inc();
        return;
      case 'order': {
        const { tag, status } = e.order;
        // An order is announced in its final state more than once (FILLED while its fills are
        // read, again once they are booked, again by a reconcile): the status is counted once,
        // so orders_total agrees with the broker's order book and with fills_total.
        if (this.lastStatus.get(tag) === status || this.finished.has(tag)) return;
        this.orders.inc({ status });
        if (isTerminalStatus(status)) {
          this.lastStatus.delete(tag);
          this.rememberFinished(tag);
        } else this.lastStatus.set(tag, status);
        return;
      }
      case 'fill':
        this.fills.inc();
        return;
      case 'denied':
        this.denials.inc({ code: e.code });
        return;
      case 'alert':
        this.alerts.inc({ code: e.code });
        return;
      case 'trading-state':
        this.setTradingState(e.to);
        return;
      default:
        return;
    }
  }

  /** Sets the trading-state gauge (the daemon calls it once with the state loaded at start). */
  setTradingState(state: TradingState): void {
    for (const s of Object.values(TradingState)) this.tradingState.set({ state: s }, s === state ? 1 : 0);
  }

  /** Prometheus text exposition. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  private rememberFinished(tag: string): void {
    this.finished.add(tag);
    if (this.finished.size > FINISHED_KEPT) {
      // A Set iterates in insertion order: the first is the oldest.
      for (const oldest of this.finished) {
        this.finished.delete(oldest);
        break;
      }
    }
  }

  private open(): number {
    return this.lastStatus.size;
  }
}
