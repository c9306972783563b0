/**
 * The one source of time. Nothing in tarang reads wall time except `WallClock` here; everything
 * else takes a `Clock`. Backtests and tests use `VirtualClock`, which only moves when told to, so
 * runs are deterministic. Both expose an RxJS scheduler so time-based operators follow the clock.
 */
import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';

export interface TimerHandle {
  cancel(): void;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  setInterval(fn: () => void, ms: number): TimerHandle;
  /** Resolves after `ms` of this clock's time. */
  sleep(ms: number): Promise<void>;
  /** An RxJS scheduler driven by this clock (for timer, debounceTime, bufferTime, ...). */
  readonly scheduler: SchedulerLike;
}

/**
 * Real time, optionally shifted and sped up: `now = start + (wall - wallAtStart) * speed`.
 * The paper demo and the simulator use speed > 1 to play a trading day in minutes.
 */
export class WallClock implements Clock {
  readonly scheduler: SchedulerLike;
  readonly speed: number;
  private readonly wallAtStart: number;
  private readonly start: number;

  constructor(options: { start?: number; speed?: number } = {}) {
    const speed = options.speed ?? 1;
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`WallClock: speed must be a positive number, got ${speed}`);
    this.speed = speed;
    this.wallAtStart = Date.now();
    this.start = options.start ?? this.wallAtStart;
    this.scheduler = new ClockScheduler(this);
  }

  now(): number {
    if (this.speed === 1 && this.start === this.wallAtStart) return Date.now();
    return Math.floor(this.start + (Date.now() - this.wallAtStart) * this.speed);
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const t = setTimeout(fn, Math.max(0, ms / this.speed));
    t.unref?.();
    return { cancel: () => clearTimeout(t) };
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    const t = setInterval(fn, Math.max(1, ms / this.speed));
    t.unref?.();
    return { cancel: () => clearInterval(t) };
  }

  sleep(ms: number): Promise<void> {
    // Not unref'd: a caller awaiting a sleep expects the process to stay up for it.
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms / this.speed)));
  }
}

interface VirtualTimer {
  at: number;
  seq: number;
  fn: () => void;
  every: number | undefined;
  cancelled: boolean;
}

/**
 * Time that moves only when told. Timers fire in (time, creation) order while advancing, with
 * `now()` set to each timer's due time as it fires. Deterministic by construction.
 */
export class VirtualClock implements Clock {
  readonly scheduler: SchedulerLike;
  private current: number;
  private seq = 0;
  private readonly heap: VirtualTimer[] = [];

  constructor(start = 0) {
    this.current = start;
    this.scheduler = new ClockScheduler(this);
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    return this.add(fn, Math.max(0, ms), undefined);
  }

  setInterval(fn: () => void, ms: number): TimerHandle {
    if (!(ms > 0)) throw new RangeError(`VirtualClock.setInterval: period must be > 0, got ${ms}`);
    return this.add(fn, ms, ms);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.setTimeout(resolve, ms));
  }

  /** Number of timers still due. */
  get pending(): number {
    return this.heap.filter((t) => !t.cancelled).length;
  }

  /** Due time of the next live timer, if any. */
  nextDue(): number | undefined {
    this.dropCancelled();
    return this.heap[0]?.at;
  }

  /** Moves time forward to `ts`, firing every timer due on the way (synchronously). */
  advanceTo(ts: number): void {
    if (ts < this.current) throw new RangeError(`VirtualClock: cannot move back from ${this.current} to ${ts}`);
    for (;;) {
      this.dropCancelled();
      const next = this.heap[0];
      if (!next || next.at > ts) break;
      this.fire(next);
    }
    this.current = ts;
  }

  advanceBy(ms: number): void {
    this.advanceTo(this.current + ms);
  }

  /**
   * Like advanceTo, but lets promise callbacks run between timers: use it when the code under
   * test awaits between timer-driven steps (HTTP calls, sleeps in retry loops).
   */
  async advanceToAsync(ts: number): Promise<void> {
    if (ts < this.current) throw new RangeError(`VirtualClock: cannot move back from ${this.current} to ${ts}`);
    await settle();
    for (;;) {
      this.dropCancelled();
      const next = this.heap[0];
      if (!next || next.at > ts) break;
      this.fire(next);
      await settle();
    }
    this.current = ts;
    await settle();
  }

  advanceByAsync(ms: number): Promise<void> {
    return this.advanceToAsync(this.current + ms);
  }

  private fire(timer: VirtualTimer): void {
    this.pop();
    this.current = Math.max(this.current, timer.at);
    if (timer.every !== undefined) {
      timer.at += timer.every;
      timer.seq = this.seq++;
      this.push(timer);
    } else {
      timer.cancelled = true;
    }
    timer.fn();
  }

  private add(fn: () => void, delay: number, every: number | undefined): TimerHandle {
    const timer: VirtualTimer = { at: this.current + delay, seq: this.seq++, fn, every, cancelled: false };
    this.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  private dropCancelled(): void {
    while (this.heap[0]?.cancelled) this.pop();
  }

  private less(a: VirtualTimer, b: VirtualTimer): boolean {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }

  private push(t: VirtualTimer): void {
    const h = this.heap;
    h.push(t);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const parent = h[p]!;
      if (!this.less(t, parent)) break;
      h[i] = parent;
      i = p;
    }
    h[i] = t;
  }

  private pop(): void {
    const h = this.heap;
    const last = h.pop();
    if (!last || h.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && this.less(h[r]!, h[l]!) ? r : l;
      if (!this.less(h[c]!, last)) break;
      h[i] = h[c]!;
      i = c;
    }
    h[i] = last;
  }
}

/** Lets pending promise callbacks and I/O callbacks run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

class ClockAction<T> extends Subscription implements SchedulerAction<T> {
  private timer: TimerHandle | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly work: (this: SchedulerAction<T>, state?: T) => void,
  ) {
    super(() => this.timer?.cancel());
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.timer?.cancel();
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      if (!this.closed) this.work.call(this, state);
    }, delay);
    return this;
  }
}

/** RxJS scheduler whose time and delays come from a Clock. */
export class ClockScheduler implements SchedulerLike {
  constructor(private readonly clock: Clock) {}

  now(): number {
    return this.clock.now();
  }

  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
    return new ClockAction<T>(this.clock, work).schedule(state, delay);
  }
}
