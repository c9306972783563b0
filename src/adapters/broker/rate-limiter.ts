/**
 * Client-side rate limits of spec 8: one limiter per category, shared by every caller in the
 * process (`sharedRateLimiters`), optionally backed by a budget shared across processes through
 * Redis (src/adapters/redis/limiter.ts, bottleneck's ioredis datastore).
 *
 * Why the in-process limiter is not bottleneck itself: bottleneck drains its queue through a chain
 * of `setTimeout(0)` hops, measured at ~2.3 ms per call even when idle, against a budget of 50 us,
 * and its timers are wall-clock timers the VirtualClock cannot drive. So the local part is an exact
 * sliding window (a ring of the last N grant times) on the Clock: a call under budget is granted
 * synchronously with no timer and no allocation beyond its own promise. Bottleneck does the job
 * it is good at, sharing one budget between processes through Redis, behind `SharedBudget`.
 *
 * A 429 from the broker means the budget was already spent elsewhere (another process, the
 * dashboard): `penalise` closes the category until `Retry-After` has passed.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';
import { istDayStart } from '../../core/time.js';
import { DAY_MS } from '../../core/time.js';
import { RateLimited } from './errors.js';
import { retailAlgoRules } from '../../risk/rules/retail-algo.js';
import { DEFAULT_LIMITS, type CategoryLimit, type RateCategory } from './rate-categories.js';
import { SegmentLimiter, type ReleaseSlot } from './segment-limiter.js';

/** A budget shared across processes. `acquire` resolves when this process may make one call. */
export interface SharedBudget {
  acquire(category: RateCategory): Promise<void>;
  close(): Promise<void>;
}

export interface LimiterStats {
  readonly granted: number;
  /** Calls that had to wait for the window. */
  readonly delayed: number;
  /** 429 answers absorbed (penalties applied). */
  readonly rateLimited: number;
  readonly queued: number;
  readonly usedToday: number;
}

interface Waiter {
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class CategoryLimiter {
  private readonly ring: Float64Array;
  private head = 0;
  private readonly queue: Waiter[] = [];
  private timer: TimerHandle | undefined;
  private blockedUntil = 0;
  private dayStart = -1;
  private dayEnd = -1;
  private usedToday = 0;
  private granted = 0;
  private delayed = 0;
  private rateLimited = 0;

  constructor(
    readonly category: RateCategory,
    readonly limit: CategoryLimit,
    private readonly clock: Clock,
  ) {
    if (!Number.isInteger(limit.perWindow) || limit.perWindow < 1) throw new RangeError(`rate limit ${category}: perWindow must be a positive integer`);
    if (!(limit.windowMs > 0)) throw new RangeError(`rate limit ${category}: windowMs must be positive`);
    this.ring = new Float64Array(limit.perWindow).fill(-Infinity);
  }

  /**
   * Resolves when a call may be made. Under budget it takes the slot synchronously (the returned
   * promise is already resolved). Rejects with RateLimited only when the daily cap is spent.
   */
  acquire(): Promise<void> {
    if (this.queue.length === 0 && this.tryTake()) return RESOLVED;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ resolve, reject });
      this.delayed++;
      this.pump();
    });
  }

  /** A 429 was answered: hold every call of this category for `ms`. */
  penalise(ms: number): void {
    this.rateLimited++;
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + Math.max(ms, 1));
    this.timer?.cancel();
    this.timer = undefined;
    this.pump();
  }

  stats(): LimiterStats {
    return { granted: this.granted, delayed: this.delayed, rateLimited: this.rateLimited, queued: this.queue.length, usedToday: this.usedToday };
  }

  /** Rejects every waiter (shutdown). */
  close(): void {
    this.timer?.cancel();
    this.timer = undefined;
    for (const w of this.queue.splice(0)) w.reject(new RateLimited(`rate limiter ${this.category} closed`, { category: this.category }));
  }

  private dailyExhausted(now: number): boolean {
    if (this.limit.perDay === undefined) return false;
    if (now >= this.dayEnd || now < this.dayStart) {
      this.dayStart = istDayStart(now);
      this.dayEnd = this.dayStart + DAY_MS;
      this.usedToday = 0;
    }
    return this.usedToday >= this.limit.perDay;
  }

  private tryTake(): boolean {
    const now = this.clock.now();
    if (now < this.blockedUntil) return false;
    if (this.ring[this.head]! > now - this.limit.windowMs) return false;
    if (this.dailyExhausted(now)) return false;
    this.ring[this.head] = now;
    this.head = this.head + 1 === this.ring.length ? 0 : this.head + 1;
    this.usedToday++;
    this.granted++;
    return true;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const now = this.clock.now();
      if (this.dailyExhausted(now)) {
        const err = new RateLimited(`daily cap of ${this.limit.perDay} ${this.category} calls reached; it resets at midnight IST`, {
          category: this.category,
          perDay: this.limit.perDay,
          retryAfterMs: this.dayEnd - now,
        });
        for (const w of this.queue.splice(0)) w.reject(err);
        return;
      }
      if (!this.tryTake()) break;
      this.queue.shift()!.resolve();
    }
    if (this.queue.length === 0 || this.timer) return;
    const now = this.clock.now();
    const due = Math.max(this.blockedUntil, this.ring[this.head]! + this.limit.windowMs);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, Math.max(0, due - now));
  }
}

const RESOLVED: Promise<void> = Promise.resolve();

export type LimitOverrides = Partial<Record<RateCategory, Partial<CategoryLimit>>>;

/** The set of category limiters for one account, plus the optional cross-process budget. */
export class RateLimiters {
  private readonly limiters: Record<RateCategory, CategoryLimiter>;
  /** New orders per exchange segment (retail-algo framework), created on first use. */
  private readonly segments = new Map<string, SegmentLimiter>();

  constructor(
    readonly clock: Clock,
    overrides: LimitOverrides = {},
    private readonly shared?: SharedBudget,
    /** New orders a second per exchange segment; default the exchange's threshold (retail-algo.yaml). */
    readonly perSegment: number = retailAlgoRules().ordersPerSecond,
  ) {
    const make = (c: RateCategory) => new CategoryLimiter(c, { ...DEFAULT_LIMITS[c], ...overrides[c] }, clock);
    this.limiters = { orders: make('orders'), data: make('data'), quotes: make('quotes'), nonTrading: make('nonTrading'), token: make('token') };
  }

  get(category: RateCategory): CategoryLimiter {
    return this.limiters[category];
  }

  /** Waits for the local window, then (when configured) for the shared budget. */
  acquire(category: RateCategory): Promise<void> {
    const local = this.limiters[category].acquire();
    if (!this.shared) return local;
    const shared = this.shared;
    return local.then(() => shared.acquire(category));
  }

  /**
   * Waits until one more new order may go on `segment` (`NSE FNO`, see `exchangeSegment`): a burst
   * above the threshold is queued here, in order, rather than sent and refused by the broker.
   * Call the release once the order's answer is in (segment-limiter.ts says why).
   */
  acquireSegment(segment: string): Promise<ReleaseSlot> {
    let l = this.segments.get(segment);
    if (!l) this.segments.set(segment, (l = new SegmentLimiter(segment, this.perSegment, this.clock)));
    return l.acquire();
  }

  /** Per exchange segment: new orders granted and how many had to wait. */
  segmentStats(): Record<string, LimiterStats> {
    const out: Record<string, LimiterStats> = {};
    for (const [k, l] of this.segments) out[k] = l.stats();
    return out;
  }

  penalise(category: RateCategory, ms: number): void {
    this.limiters[category].penalise(ms);
  }

  stats(): Record<RateCategory, LimiterStats> {
    const out = {} as Record<RateCategory, LimiterStats>;
    for (const [k, l] of Object.entries(this.limiters) as Array<[RateCategory, CategoryLimiter]>) out[k] = l.stats();
    return out;
  }

  async close(): Promise<void> {
    for (const l of Object.values(this.limiters)) l.close();
    for (const l of this.segments.values()) l.close();
    await this.shared?.close();
  }
}

const registry = new WeakMap<Clock, Map<string, RateLimiters>>();

/** Forgets the process-wide limiters of `key` (their owner closed them). */
export function releaseSharedRateLimiters(clock: Clock, key: string, limiters: RateLimiters): void {
  const byKey = registry.get(clock);
  if (byKey?.get(key) === limiters) byKey.delete(key);
}

/**
 * The process-wide limiters for an account at `baseUrl` on `clock`: every client built for the
 * same broker in this process draws from the same budget. The first caller's overrides and shared
 * budget win; later callers get the existing set.
 */
export function sharedRateLimiters(clock: Clock, key: string, overrides?: LimitOverrides, shared?: SharedBudget, perSegment?: number): RateLimiters {
  let byKey = registry.get(clock);
  if (!byKey) registry.set(clock, (byKey = new Map()));
  let l = byKey.get(key);
  if (!l) byKey.set(key, (l = new RateLimiters(clock, overrides, shared, perSegment)));
  return l;
}
