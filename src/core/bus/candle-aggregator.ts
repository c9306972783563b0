/**
 * Candles for many instruments and intervals, built from ticks (one `CandleBuilder` each) and
 * closed on time by the clock: one timer per interval, set for the earliest open bucket end
 * (buckets of an interval are aligned across instruments, so one timer serves them all). With a
 * `VirtualClock` the timers fire as the clock is advanced: that is the virtual-time mode.
 */
import type { Interval } from '../candles.js';
import type { Clock, TimerHandle } from '../clock.js';
import type { CandleEvent, TickEvent } from '../events.js';
import { CandleBuilder } from './candle-builder.js';

export class CandleAggregator {
  private readonly byInstrument = new Map<string, CandleBuilder[]>();
  private readonly byInterval = new Map<Interval, CandleBuilder[]>();
  private readonly timers = new Map<Interval, { at: number; handle: TimerHandle }>();

  constructor(
    private readonly clock: Clock,
    private readonly emit: (candle: CandleEvent) => void,
  ) {}

  /** Builds `interval` candles for `instrument` (idempotent). */
  add(instrument: string, interval: Interval): void {
    const list = this.byInstrument.get(instrument) ?? [];
    if (list.some((b) => b.interval === interval)) return;
    const b = new CandleBuilder(instrument, interval);
    list.push(b);
    this.byInstrument.set(instrument, list);
    const li = this.byInterval.get(interval) ?? [];
    li.push(b);
    this.byInterval.set(interval, li);
  }

  /** Whether any candles are built for the instrument. */
  has(instrument: string): boolean {
    return this.byInstrument.has(instrument);
  }

  /** Feeds a tick; emits the candles it closes (before the caller publishes the tick itself). */
  onTick(tick: TickEvent): void {
    const list = this.byInstrument.get(tick.instrument);
    if (!list) return;
    for (let i = 0; i < list.length; i++) {
      const b = list[i]!;
      const closed = b.onTick(tick);
      if (closed) this.emit(closed);
      const end = b.pendingEnd;
      if (end !== undefined) this.arm(b.interval, end);
    }
  }

  /** Releases every candle whose bucket has ended by `now` (the timers call this; so may a driver). */
  flush(now = this.clock.now()): void {
    for (const interval of this.byInterval.keys()) this.flushInterval(interval, now);
  }

  /** Cancels the timers (open buckets stay open). */
  close(): void {
    for (const t of this.timers.values()) t.handle.cancel();
    this.timers.clear();
  }

  private flushInterval(interval: Interval, now: number): void {
    let next = Infinity;
    for (const b of this.byInterval.get(interval) ?? []) {
      const c = b.flush(now);
      if (c) this.emit(c);
      const end = b.pendingEnd;
      if (end !== undefined && end < next) next = end;
    }
    const t = this.timers.get(interval);
    if (t && t.at <= now) {
      t.handle.cancel();
      this.timers.delete(interval);
    }
    if (next !== Infinity) this.arm(interval, next);
  }

  private arm(interval: Interval, at: number): void {
    const t = this.timers.get(interval);
    if (t && t.at <= at) return;
    t?.handle.cancel();
    const handle = this.clock.setTimeout(() => {
      this.timers.delete(interval);
      this.flushInterval(interval, this.clock.now());
    }, at - this.clock.now());
    this.timers.set(interval, { at, handle });
  }
}
