/**
 * Per-category rate limits on the simulator's clock: a rolling one-second window (a ring of the
 * call times of the last second: a call is allowed while fewer than `perSecond` are in it) and a
 * per-IST-day counter. Rejected calls do not consume budget, as on most gateways.
 */
import type { Clock } from '../../../core/clock.js';
import { DAY_MS, istDayStart } from '../../../core/time.js';
import { DEFAULT_RATE_LIMITS, type CategoryLimit, type RateCategory, type RateLimitTable } from './rate-category.js';

const WINDOW_MS = 1000;

export interface RateDecision {
  readonly allowed: boolean;
  /** The limit these figures describe (per second, or per day once the day budget is the binding one). */
  readonly limit: number;
  readonly remaining: number;
  /** Epoch ms when budget frees up. */
  readonly resetAt: number;
  /** On refusal, ms until a retry can pass. */
  readonly retryAfterMs: number;
  readonly scope: 'second' | 'day';
}

class CategoryWindow {
  /** Times of the calls inside the last second, oldest at `head` (a ring of `perSecond` slots). */
  private readonly ring: Float64Array;
  private head = 0;
  private count = 0;
  private day = -1;
  private dayCount = 0;

  constructor(readonly limit: CategoryLimit) {
    this.ring = new Float64Array(limit.perSecond);
  }

  take(now: number): RateDecision {
    const dayStart = istDayStart(now);
    if (dayStart !== this.day) {
      this.day = dayStart;
      this.dayCount = 0;
    }
    const perDay = this.limit.perDay;
    if (perDay !== undefined && this.dayCount >= perDay) {
      const resetAt = dayStart + DAY_MS;
      return { allowed: false, limit: perDay, remaining: 0, resetAt, retryAfterMs: resetAt - now, scope: 'day' };
    }
    const size = this.ring.length;
    // Forget calls a full second old (amortised O(1): each call is dropped once).
    while (this.count > 0 && now - this.ring[this.head]! >= WINDOW_MS) {
      this.head = (this.head + 1) % size;
      this.count--;
    }
    if (this.count >= size) {
      const resetAt = this.ring[this.head]! + WINDOW_MS;
      return { allowed: false, limit: size, remaining: 0, resetAt, retryAfterMs: resetAt - now, scope: 'second' };
    }
    this.ring[(this.head + this.count) % size] = now;
    this.count++;
    this.dayCount++;
    const remainingSecond = size - this.count;
    const resetAt = this.ring[this.head]! + WINDOW_MS;
    if (perDay !== undefined && perDay - this.dayCount < remainingSecond) {
      return { allowed: true, limit: perDay, remaining: perDay - this.dayCount, resetAt: dayStart + DAY_MS, retryAfterMs: 0, scope: 'day' };
    }
    return { allowed: true, limit: size, remaining: remainingSecond, resetAt, retryAfterMs: 0, scope: 'second' };
  }
}

export class RateLimiter {
  private readonly windows = new Map<string, CategoryWindow>();
  readonly table: RateLimitTable;

  constructor(
    private readonly clock: Clock,
    table: Partial<Record<RateCategory, CategoryLimit>> = {},
  ) {
    this.table = { ...DEFAULT_RATE_LIMITS, ...table };
    for (const [cat, l] of Object.entries(this.table)) {
      if (!Number.isSafeInteger(l.perSecond) || l.perSecond <= 0) {
        throw new RangeError(`rate limit ${cat}.perSecond must be a positive integer, got ${l.perSecond}`);
      }
      if (l.perDay !== undefined && (!Number.isSafeInteger(l.perDay) || l.perDay <= 0)) {
        throw new RangeError(`rate limit ${cat}.perDay must be a positive integer, got ${l.perDay}`);
      }
    }
  }

  /** Counts one call of `category` for `user` and says whether it may proceed. */
  take(user: string, category: RateCategory): RateDecision {
    const key = `${user}\u0000${category}`;
    let w = this.windows.get(key);
    if (!w) {
      w = new CategoryWindow(this.table[category]);
      this.windows.set(key, w);
    }
    return w.take(this.clock.now());
  }
}
