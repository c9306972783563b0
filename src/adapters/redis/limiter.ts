/**
 * The broker's rate budget shared across processes through Redis, with bottleneck's ioredis
 * datastore: one clustered bottleneck limiter per category (id `tarang:<account>:<category>`),
 * each a reservoir of `perWindow` calls refilled every `windowMs` (refills are computed inside
 * Redis, so every process sees the same budget). Daily caps are one INCR per call on a key per IST
 * day. Used behind the in-process limiter (src/adapters/broker/rate-limiter.ts): a call waits for
 * its local window first, then for the shared budget.
 */
import Bottleneck from 'bottleneck';
import { Redis } from 'ioredis';
import type { Clock } from '../../core/clock.js';
import { DAY_MS, istDate, istDayStart } from '../../core/time.js';
import { RateLimited } from '../broker/errors.js';
import { DEFAULT_LIMITS, type CategoryLimit, type RateCategory } from '../broker/rate-categories.js';
import type { LimitOverrides, SharedBudget } from '../broker/rate-limiter.js';

export interface RedisBudgetOptions {
  /** `redis://host:port/db`. */
  readonly url: string;
  /** Names the account whose budget this is (several accounts may share one Redis). */
  readonly account: string;
  readonly clock: Clock;
  readonly overrides?: LimitOverrides;
  /** Wipe the stored limiter state on start (tests). */
  readonly clearState?: boolean;
}

export class RedisRateBudget implements SharedBudget {
  private readonly client: Redis;
  private readonly connection: Bottleneck.IORedisConnection;
  private readonly limiters = new Map<RateCategory, Bottleneck>();
  private readonly limits: Record<RateCategory, CategoryLimit>;

  constructor(private readonly options: RedisBudgetOptions) {
    if (!/^rediss?:\/\//.test(options.url)) throw new RangeError(`RedisRateBudget: url must start with redis://, got ${JSON.stringify(options.url)}`);
    if (!options.account) throw new RangeError('RedisRateBudget: account must name the broker account');
    this.client = new Redis(options.url, { maxRetriesPerRequest: 2, lazyConnect: false });
    this.client.on('error', () => {});
    this.connection = new Bottleneck.IORedisConnection({ client: this.client });
    this.connection.on('error', () => {});
    const o = options.overrides ?? {};
    this.limits = {
      orders: { ...DEFAULT_LIMITS.orders, ...o.orders },
      data: { ...DEFAULT_LIMITS.data, ...o.data },
      quotes: { ...DEFAULT_LIMITS.quotes, ...o.quotes },
      nonTrading: { ...DEFAULT_LIMITS.nonTrading, ...o.nonTrading },
      token: { ...DEFAULT_LIMITS.token, ...o.token },
    };
  }

  private limiter(category: RateCategory): Bottleneck {
    let l = this.limiters.get(category);
    if (!l) {
      const lim = this.limits[category];
      l = new Bottleneck({
        id: `tarang:${this.options.account}:${category}`,
        datastore: 'ioredis',
        connection: this.connection,
        clearDatastore: this.options.clearState ?? false,
        reservoir: lim.perWindow,
        reservoirRefreshAmount: lim.perWindow,
        reservoirRefreshInterval: lim.windowMs,
        // Keys vanish a day after the last use, so a stopped fleet leaves nothing behind.
        timeout: DAY_MS,
      });
      l.on('error', () => {});
      this.limiters.set(category, l);
    }
    return l;
  }

  async acquire(category: RateCategory): Promise<void> {
    const perDay = this.limits[category].perDay;
    if (perDay !== undefined) {
      const now = this.options.clock.now();
      const key = `tarang:${this.options.account}:daily:${category}:${istDate(now)}`;
      const used = await this.client.incr(key);
      if (used === 1) await this.client.pexpire(key, 2 * DAY_MS);
      if (used > perDay) {
        throw new RateLimited(`daily cap of ${perDay} ${category} calls reached across processes; it resets at midnight IST`, {
          category,
          perDay,
          retryAfterMs: istDayStart(now) + DAY_MS - now,
        });
      }
    }
    await this.limiter(category).schedule(() => Promise.resolve());
  }

  /** Calls granted today for a category, across every process. */
  async usedToday(category: RateCategory): Promise<number> {
    const v = await this.client.get(`tarang:${this.options.account}:daily:${category}:${istDate(this.options.clock.now())}`);
    return v === null ? 0 : Number(v);
  }

  async close(): Promise<void> {
    await Promise.all([...this.limiters.values()].map((l) => l.disconnect(false)));
    await this.connection.disconnect(false);
    this.client.disconnect();
  }
}
