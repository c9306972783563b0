/**
 * The simulator's running clock: market time that follows wall time at `speed` (a day in minutes
 * at speed 60), and that the control API can also jump forward (`POST /sim/clock`). It is a
 * VirtualClock pumped from a real interval, so timers fire in order on the way, jumps included,
 * and never inside a caller's `now()`.
 */
import type { Clock, TimerHandle } from '../../../core/clock.js';
import { VirtualClock } from '../../../core/clock.js';
import type { SchedulerLike } from 'rxjs';

/** How a clock can be moved by the control API. Implemented for VirtualClock and PacedClock. */
export interface ClockControl {
  readonly clock: Clock;
  advance(ms: number): Promise<void>;
  set(ts: number): Promise<void>;
  close(): void;
}

/**
 * Wall ms between catch-ups: 5, less at high speeds so that one catch-up plays at most about
 * `MARKET_MS_PER_PUMP` of market time (x400: every millisecond, not 2 s of market at once). All a
 * catch-up's ticks leave in one burst, so this bounds a burst, and how long the simulator is busy
 * with one, to the market's rate rather than the pump's.
 */
const PUMP_MS = 5;
const MARKET_MS_PER_PUMP = 500;

function pumpMs(speed: number): number {
  return Math.max(1, Math.min(PUMP_MS, Math.floor(MARKET_MS_PER_PUMP / speed)));
}

export class PacedClock implements Clock {
  private readonly inner: VirtualClock;
  private readonly wallAtStart: number;
  /** Market ms added by jumps. */
  private offset = 0;
  private readonly pump: NodeJS.Timeout;

  constructor(
    private readonly start: number,
    readonly speed = 1,
  ) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`PacedClock: speed must be a positive number, got ${speed}`);
    this.inner = new VirtualClock(start);
    this.wallAtStart = performance.now();
    this.pump = setInterval(() => this.catchUp(), pumpMs(speed));
    this.pump.unref();
  }

  get scheduler(): SchedulerLike {
    return this.inner.scheduler;
  }

  now(): number {
    return this.inner.now();
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.inner.setTimeout(fn, ms);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    return this.inner.setInterval(fn, ms);
  }

  sleep(ms: number): Promise<void> {
    return this.inner.sleep(ms);
  }

  /** Jumps forward, firing every timer due on the way. */
  advance(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance: ms must be >= 0, got ${ms}`);
    this.offset += ms;
    this.catchUp();
  }

  set(ts: number): void {
    if (ts < this.inner.now()) throw new RangeError(`the clock cannot move back (now ${this.inner.now()}, asked ${ts})`);
    this.offset += ts - this.target();
    this.catchUp();
  }

  stop(): void {
    clearInterval(this.pump);
  }

  private target(): number {
    return Math.floor(this.start + (performance.now() - this.wallAtStart) * this.speed) + this.offset;
  }

  private catchUp(): void {
    const t = this.target();
    if (t > this.inner.now()) this.inner.advanceTo(t);
  }
}

export function pacedControl(clock: PacedClock): ClockControl {
  return {
    clock,
    advance: async (ms) => clock.advance(ms),
    set: async (ts) => clock.set(ts),
    close: () => clock.stop(),
  };
}

/**
 * A VirtualClock moved by the control API: synchronously (every timer due on the way fires in
 * order, none of them waits for I/O), so a day's jump costs only the market's own work.
 */
export function virtualControl(clock: VirtualClock): ClockControl {
  return {
    clock,
    advance: async (ms) => {
      if (!(ms >= 0)) throw new RangeError(`advance: ms must be >= 0, got ${ms}`);
      clock.advanceBy(ms);
    },
    set: async (ts) => {
      if (ts < clock.now()) throw new RangeError(`the clock cannot move back (now ${clock.now()}, asked ${ts})`);
      clock.advanceTo(ts);
    },
    close: () => {},
  };
}

/** Control for any other Clock the caller brings: it cannot be moved. */
export function fixedControl(clock: Clock): ClockControl {
  const refuse = (): Promise<void> => Promise.reject(new RangeError('this simulator runs on a clock that cannot be moved'));
  return { clock, advance: refuse, set: refuse, close: () => {} };
}
