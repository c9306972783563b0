/**
 * What the daemon watches, wired in one place: every bus event goes, synchronously and cheaply, to
 * the metrics, the session figures, health, alerts, the terminal display and the JSONL recorder
 * (ticks only to the first three, and to the recorder when `recording.ticks` is on); none of them
 * can block the tick path. Also measures tick-to-order latency (histogram and the optional sink, for
 * the bench) and turns the broker session's counters into metrics.
 *
 * Tick-to-order runs from the socket read that carried the tick (the feed's `arrivedAt`) to the
 * order it caused being handed to the venue's HTTP client (`orderSent`, from SendStampingVenue),
 * in three parts: queued (the read's earlier frames decoded and handled first), engine (tick into
 * the engine to the order's PENDING_NEW: all this measured before 2026-11) and send (the journal
 * write and the promise callbacks that start the request). A tick that made an order asks the feed
 * to yield, so the rest of its burst is decoded after the order has left, not before.
 */
import type { Clock } from '../core/clock.js';
import type { Event, TickEvent } from '../core/events.js';
import type { InstrumentLookup } from '../core/instruments.js';
import type { Alerter } from '../adapters/ops/alerter.js';
import type { DaemonMetrics } from '../adapters/ops/metrics.js';
import type { Engine } from '../engine/engine.js';
import type { HealthTracker } from './health.js';
import type { EventRecorder } from './recorder.js';
import type { SessionStats } from './session-stats.js';
import type { BrokerStats, MarketFeed } from './parts.js';
import { StatusDisplay } from './status-display.js';

export interface BusObserversOptions {
  readonly metrics: DaemonMetrics;
  readonly stats: SessionStats;
  readonly health: HealthTracker;
  readonly alerter: Alerter;
  readonly recorder: EventRecorder | undefined;
  /** Whether ticks are recorded too. */
  readonly recordTicks: boolean;
  /** Receives every tick-to-order latency sample, seconds, with when it started and what interrupted it (the bench). */
  readonly latencySink?: LatencySink | undefined;
  /** Where ticks come from: when their read arrived, and the yield that lets an order leave first. */
  readonly feed?: Pick<MarketFeed, 'arrivedAt' | 'yieldToWrites'> | undefined;
}

/**
 * What the bench needs to say where a slow sample's time went: when it started (the tick's read
 * arriving, performance.now() ms, to match against GC pauses), how many times the process was
 * preempted meanwhile (involuntary context switches of the whole process, so an upper bound for
 * the tick's thread; counted from the first tick of the read, or up to 1 ms before it: one syscall
 * a read at most, only for a sink),
 * and its parts in ms (see the file comment): queued + engine + send = the sample.
 */
export interface LatencyDetail {
  readonly startedAt: number;
  readonly preemptions: number;
  readonly queuedMs: number;
  /** Tick into the engine to the order's PENDING_NEW: the figure this bench printed before 2026-11. */
  readonly engineMs: number;
  readonly sendMs: number;
  /**
   * The order is one of the engine's own intraday exits (at `shutdown.intradayExitAt` one tick
   * closes every INTRADAY position, a burst of as many orders), not a strategy's decision on the tick.
   */
  readonly engineExit: boolean;
}

/** An order a tick made, waiting to be handed to the venue. */
interface PendingSample {
  readonly arrivedAt: number;
  readonly publishedAt: number;
  readonly pendingAt: number;
  readonly switches: number;
  readonly engineExit: boolean;
}

/** Orders timed but not sent yet (a journal write failed: never sent) are forgotten past this. */
const MAX_PENDING = 10_000;

export type LatencySink = (seconds: number, detail: LatencyDetail) => void;

/** The terminal status display: where it writes, its label and refresh, trading symbols for names. */
export interface DisplayOptions {
  readonly out?: NodeJS.WritableStream | undefined;
  readonly label: string;
  readonly intervalMs: number;
  readonly clock: Clock;
  readonly instruments: InstrumentLookup;
}

export class DaemonObservers {
  /** The terminal status display, when one was asked for. */
  readonly display: StatusDisplay | undefined;
  private tickStart: number | undefined;
  /** When the read carrying the current tick arrived. */
  private tickArrival = 0;
  /** The read whose involuntary context switches were counted last (only when a sink asks for samples). */
  private countedRead = -Infinity;
  private switchesAtRead = 0;
  private readonly timedTags = new Set<string>();
  private readonly pending = new Map<string, PendingSample>();
  /** Tags of the engine's intraday exit orders (samples say which orders were not a strategy's). */
  private exitTags: ReadonlySet<string> | undefined;
  private lastBroker = { rateLimited: 0, serverErrors: 0, reconnects: 0 };

  constructor(
    private readonly o: BusObserversOptions,
    display?: DisplayOptions,
  ) {
    if (display) {
      const { health } = o;
      this.display = new StatusDisplay({
        stats: o.stats,
        clock: display.clock,
        label: display.label,
        intervalMs: display.intervalMs,
        ...(display.out ? { out: display.out } : {}),
        nameOf: (id) => display.instruments.get(id)?.tradingSymbol ?? id,
        extra: () => {
          const h = health.report();
          const down = Object.entries(h.connections).filter(([, v]) => !v.connected).map(([k]) => k);
          const stalled = Object.entries(h.connections).filter(([, v]) => v.connected && v.stalled).map(([k]) => k);
          return `${h.tradingState}${down.length ? ` | DOWN ${down.join(',')}` : ''}${stalled.length ? ` | STALLED ${stalled.join(',')}` : ''}`;
        },
      });
    }
  }

  /** Subscribes to every event of the engine's bus. */
  attach(engine: Engine): void {
    const { metrics, stats, health, alerter, recorder, recordTicks } = this.o;
    const display = this.display;
    this.exitTags = engine.intradayExit?.tags;
    engine.bus.onAny((e: Event) => {
      metrics.observe(e);
      stats.observe(e);
      health.observe(e);
      if (e.type !== 'tick') {
        alerter.observe(e);
        display?.observe(e);
        if (e.type === 'order') this.timeOrder(e.order.tag, e.order.status);
      }
      if (recorder && (recordTicks || e.type !== 'tick')) recorder.record(e);
    });
  }

  /** Publishes a tick into the engine, timing the orders it causes. */
  tick(engine: Engine, t: TickEvent): void {
    const arrived = this.o.feed?.arrivedAt;
    // A syscall per read, not per tick, only for the bench's sink, and at most once a millisecond:
    // a count from up to 1 ms before the read can only call more samples preempted, never fewer.
    // Taken before the engine part's clock starts, as before (it is in the queued part).
    if (this.o.latencySink && arrived !== undefined && arrived !== this.countedRead && arrived - this.countedRead >= 1) {
      this.countedRead = arrived;
      this.switchesAtRead = process.resourceUsage().involuntaryContextSwitches;
    }
    const now = performance.now();
    this.tickArrival = arrived !== undefined && arrived > 0 && arrived <= now ? arrived : now;
    this.tickStart = now;
    try {
      engine.publishTick(t);
    } finally {
      this.tickStart = undefined;
    }
  }

  /** A new order a tick made: timed until it is sent; the rest of the tick's burst waits for it. */
  private timeOrder(tag: string, status: string): void {
    if (this.tickStart === undefined || status !== 'PENDING_NEW' || this.timedTags.has(tag)) return;
    this.timedTags.add(tag);
    if (this.timedTags.size > MAX_PENDING) this.timedTags.clear();
    this.o.feed?.yieldToWrites?.();
    if (this.pending.size >= MAX_PENDING) this.pending.clear();
    this.pending.set(tag, { arrivedAt: this.tickArrival, publishedAt: this.tickStart, pendingAt: performance.now(), switches: this.switchesAtRead, engineExit: this.exitTags?.has(tag) ?? false });
  }

  /** The venue was handed order `tag` (SendStampingVenue): ends its tick-to-order sample, if timed. */
  orderSent(tag: string): void {
    const p = this.pending.get(tag);
    if (p === undefined) return;
    this.pending.delete(tag);
    const now = performance.now();
    const seconds = (now - p.arrivedAt) / 1000;
    this.o.metrics.tickToOrder.observe(seconds);
    const sink = this.o.latencySink;
    if (sink) {
      sink(seconds, {
        startedAt: p.arrivedAt,
        preemptions: process.resourceUsage().involuntaryContextSwitches - p.switches,
        queuedMs: p.publishedAt - p.arrivedAt,
        engineMs: p.pendingAt - p.publishedAt,
        sendMs: now - p.pendingAt,
        engineExit: p.engineExit,
      });
    }
  }

  /**
   * Adds what the broker session counted since the last poll (429s, 5xx, reconnects) to the
   * metrics, and whether token generation is stopped to alerts.
   */
  pollBroker(s: BrokerStats): void {
    const { metrics } = this.o;
    const last = this.lastBroker;
    if (s.rateLimited > last.rateLimited) metrics.rateLimited.inc({ api: 'all' }, s.rateLimited - last.rateLimited);
    if (s.serverErrors > last.serverErrors) metrics.serverErrors.inc({ api: 'all' }, s.serverErrors - last.serverErrors);
    if (s.reconnects > last.reconnects) metrics.reconnects.inc({ connection: 'broker' }, s.reconnects - last.reconnects);
    this.lastBroker = { rateLimited: s.rateLimited, serverErrors: s.serverErrors, reconnects: s.reconnects };
    // Lockout risk while running: a refused token cannot be replaced while generation is stopped.
    this.o.alerter.tokenState(s.tokenBlocked);
  }
}
