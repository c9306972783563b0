/**
 * What the daemon watches, wired in one place: every bus event goes, synchronously and cheaply, to
 * the metrics, the session figures, health, alerts, the terminal display and the JSONL recorder
 * (ticks only to the first three, and to the recorder when `recording.ticks` is on); none of them
 * can block the tick path. Also measures tick-to-order latency (from a tick entering the engine to
 * the first PENDING_NEW order it caused: histogram and the optional sink, for the bench) and turns
 * the broker session's counters into metrics.
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
import type { BrokerStats } from './parts.js';
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
}

/**
 * What the bench needs to say where a slow sample's time went: when it started (performance.now()
 * ms, to match against GC pauses) and how many times the process was preempted meanwhile
 * (involuntary context switches of the whole process, so an upper bound for the tick's thread).
 */
export interface LatencyDetail {
  readonly startedAt: number;
  readonly preemptions: number;
}

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
  /** Involuntary context switches at the tick's start (only counted when a sink asks for samples). */
  private switchesAtStart = 0;
  private readonly timedTags = new Set<string>();
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
    // A syscall per tick: only for the bench's sink, and read before the clock starts.
    if (this.o.latencySink) this.switchesAtStart = process.resourceUsage().involuntaryContextSwitches;
    this.tickStart = performance.now();
    try {
      engine.publishTick(t);
    } finally {
      this.tickStart = undefined;
    }
  }

  /** Tick-to-order latency: from the tick entering the engine to the order it caused being sent. */
  private timeOrder(tag: string, status: string): void {
    if (this.tickStart === undefined || status !== 'PENDING_NEW' || this.timedTags.has(tag)) return;
    this.timedTags.add(tag);
    if (this.timedTags.size > 10_000) this.timedTags.clear();
    const seconds = (performance.now() - this.tickStart) / 1000;
    this.o.metrics.tickToOrder.observe(seconds);
    const sink = this.o.latencySink;
    if (sink) sink(seconds, { startedAt: this.tickStart, preemptions: process.resourceUsage().involuntaryContextSwitches - this.switchesAtStart });
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
