/**
 * Per-category rate limits on the simulator's clock: a rolling one-second window (a ring of the
 * last `perSecond` call times: a call is allowed when the oldest of them is a full second old)
 * and a per-IST-day counter. Rejected calls do not consume budget, as on most gateways.
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
  private readonly ring: number[];
  private next = 0;
  private day = -1;
  private dayCount = 0;

  constructor(readonly limit: CategoryLimit) {
    this.ring = new Array<number>(limit.perSecond).fill(Number.NEGATIVE_INFINITY);
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
    const oldest = this.ring[this.next]!;
    if (now - oldest < WINDOW_MS) {
      const resetAt = oldest + WINDOW_MS;
      return { allowed: false, limit: this.limit.perSecond, remaining: 0, resetAt, retryAfterMs: resetAt - now, scope: 'second' };
    }
    this.ring[this.next] = now;
    this.next = (this.next + 1) % this.ring.length;
    this.dayCount++;
    let inWindow = 0;
    for (const t of this.ring) if (now - t < WINDOW_MS) inWindow++;
    const remainingSecond = this.limit.perSecond - inWindow;
    const nextOldest = this.ring[this.next]!;
    const resetAt = Number.isFinite(nextOldest) && now - nextOldest < WINDOW_MS ? nextOldest + WINDOW_MS : now + WINDOW_MS;
    if (perDay !== undefined && perDay - this.dayCount < remainingSecond) {
      return { allowed: true, limit: perDay, remaining: perDay - this.dayCount, resetAt: dayStart + DAY_MS, retryAfterMs: 0, scope: 'day' };
    }
    return { allowed: true, limit: this.limit.perSecond, remaining: remainingSecond, resetAt, retryAfterMs: 0, scope: 'second' };
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
