/**
 * `Store` on Redis (ioredis), for state that must outlive the process: a hash per namespace
 * (`<prefix>h:<ns>`) and a list per log (`<prefix>l:<ns>`), values as JSON text.
 *
 * Losing Redis for a while must not lose a write or stop trading:
 * - ioredis reconnects on its own (backoff from `retry`), and `maxRetriesPerRequest: null` keeps
 *   every command queued until it is answered, so a write issued during an outage lands after it.
 * - A command that was on the wire when the connection died is re-sent after the reconnect
 *   (`autoResendUnfulfilledCommands`). For HSET/HDEL that is harmless; INCRBY and RPUSH are not
 *   idempotent, so they run as Lua scripts that carry a per-call operation id and remember its
 *   result for a day: a re-sent operation returns the first result instead of applying twice.
 * - If the server itself restarted (data gone), the owner re-persists its state: `onReconnect`
 *   listeners run on every reconnect after the first connection.
 */
import { randomUUID } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import { z } from 'zod';
import type { JsonValue, Store } from '../../core/store.js';
import { TarangError } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { formatZodIssues } from '../../core/zod-issues.js';

export class StoreError extends TarangError {
  readonly code = 'STORE_FAILED' as const;
}

/** Backoff between reconnect attempts, as data: delay = min(base * 2^(attempt-1), max). */
export interface ReconnectPolicy {
  readonly baseMs: number;
  readonly maxMs: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { baseMs: 50, maxMs: 2_000 };

const OptionsSchema = z.object({
  url: z.string().regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL'),
  prefix: z.string().min(1).default('tarang:'),
  retry: z.object({ baseMs: z.number().positive(), maxMs: z.number().positive() }).default(DEFAULT_RECONNECT),
  /** How long an operation id is remembered for de-duplication of re-sent INCRBY/RPUSH. */
  opTtlSeconds: z.number().int().positive().default(86_400),
  connectTimeoutMs: z.number().int().positive().default(5_000),
});

export interface RedisStoreOptions {
  /** `redis://[user:pass@]host:port[/db]`. */
  readonly url: string;
  /** Prefix of every key, so several daemons (accounts) can share one server. Default `tarang:`. */
  readonly prefix?: string;
  readonly retry?: ReconnectPolicy;
  readonly opTtlSeconds?: number;
  readonly connectTimeoutMs?: number;
  readonly log?: Logger;
}

// KEYS[1] = target hash, KEYS[2] = op key; ARGV = field, by, ttl.
export const INCR_ONCE_LUA = `
local done = redis.call('GET', KEYS[2])
if done then return tonumber(done) end
local v = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
redis.call('SET', KEYS[2], v, 'EX', ARGV[3])
return v`;

// KEYS[1] = target list, KEYS[2] = op key; ARGV = json, ttl.
export const APPEND_ONCE_LUA = `
local done = redis.call('GET', KEYS[2])
if done then return tonumber(done) end
local n = redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], n, 'EX', ARGV[2])
return n`;

interface ScriptedRedis extends Redis {
  incrOnce(hash: string, opKey: string, field: string, by: number, ttl: number): Promise<string | number>;
  appendOnce(list: string, opKey: string, json: string, ttl: number): Promise<number>;
}

export type StoreConnectionState = 'connecting' | 'ready' | 'reconnecting' | 'closed';

export class RedisStore implements Store {
  private readonly redis: ScriptedRedis;
  private readonly prefix: string;
  private readonly opTtl: number;
  private readonly log: Logger | undefined;
  private readonly reconnectListeners = new Set<() => void>();
  private readonly stateListeners = new Set<(state: StoreConnectionState) => void>();
  private state: StoreConnectionState = 'connecting';
  private everReady = false;
  private closing = false;
  private reconnects = 0;

  constructor(options: RedisStoreOptions) {
    const parsed = OptionsSchema.safeParse(options);
    if (!parsed.success) {
      throw new StoreError(`RedisStore: ${formatZodIssues(parsed.error, { limit: 1, root: 'options' })}`, { url: redactUrl(options.url) });
    }
    const o = parsed.data;
    this.prefix = o.prefix;
    this.opTtl = o.opTtlSeconds;
    this.log = options.log;
    const redisOptions: RedisOptions = {
      maxRetriesPerRequest: null,
      enableOfflineQueue: true,
      autoResendUnfulfilledCommands: true,
      connectTimeout: o.connectTimeoutMs,
      retryStrategy: (attempt) => (this.closing ? null : Math.min(o.retry.baseMs * 2 ** Math.min(attempt - 1, 16), o.retry.maxMs)),
      lazyConnect: false,
    };
    this.redis = new Redis(o.url, redisOptions) as ScriptedRedis;
    this.redis.defineCommand('incrOnce', { numberOfKeys: 2, lua: INCR_ONCE_LUA });
    this.redis.defineCommand('appendOnce', { numberOfKeys: 2, lua: APPEND_ONCE_LUA });
    this.redis.on('ready', () => {
      const again = this.everReady;
      this.everReady = true;
      this.setState('ready');
      if (again) {
        this.reconnects++;
        this.log?.info({ reconnects: this.reconnects }, 'redis store: reconnected');
        for (const l of this.reconnectListeners) {
          try {
            l();
          } catch (e) {
            this.log?.error({ err: e }, 'redis store: reconnect listener failed');
          }
        }
      }
    });
    this.redis.on('reconnecting', () => {
      if (this.state !== 'reconnecting') this.log?.warn('redis store: connection lost, reconnecting');
      this.setState('reconnecting');
    });
    // Without a listener ioredis prints unhandled errors; the connection state says enough.
    this.redis.on('error', (e: Error) => this.log?.debug({ err: e }, 'redis store: connection error'));
  }

  get connectionState(): StoreConnectionState {
    return this.state;
  }

  /** Calls `listener` on every change of the connection state; returns the unsubscribe. */
  onConnectionState(listener: (state: StoreConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private setState(state: StoreConnectionState): void {
    if (this.state === state) return;
    this.state = state;
    for (const l of this.stateListeners) {
      try {
        l(state);
      } catch (e) {
        this.log?.error({ err: e }, 'redis store: state listener failed');
      }
    }
  }

  /** Number of reconnects after the first connection. */
  get reconnectCount(): number {
    return this.reconnects;
  }

  /** Resolves once connected (rejects after `timeoutMs`); operations do not need it, they queue. */
  async ready(timeoutMs = 5_000): Promise<void> {
    if (this.state === 'ready') return;
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => {
        this.redis.off('ready', done);
        reject(new StoreError(`RedisStore: not connected after ${timeoutMs} ms`, { state: this.state }));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(t);
        resolve();
      };
      this.redis.once('ready', done);
    });
  }

  /** Runs `listener` after each reconnect (not the first connect): re-persist what may be lost. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /** The server-side id of this store's connection (for diagnosis and tests). */
  async clientId(): Promise<number> {
    return Number(await this.redis.client('ID'));
  }

  async get<T extends JsonValue>(ns: string, key: string): Promise<T | undefined> {
    const raw = await this.redis.hget(this.hashKey(ns), key);
    return raw === null ? undefined : this.parse<T>(raw, ns, key);
  }

  async set(ns: string, key: string, value: JsonValue): Promise<void> {
    await this.redis.hset(this.hashKey(ns), key, JSON.stringify(value));
  }

  async delete(ns: string, key: string): Promise<void> {
    await this.redis.hdel(this.hashKey(ns), key);
  }

  async entries<T extends JsonValue>(ns: string): Promise<Array<[string, T]>> {
    const all = await this.redis.hgetall(this.hashKey(ns));
    return Object.entries(all).map(([k, v]) => [k, this.parse<T>(v, ns, k)]);
  }

  async incr(ns: string, key: string, by = 1): Promise<number> {
    if (!Number.isSafeInteger(by)) throw new StoreError(`RedisStore.incr: ${ns}.${key}: increment must be an integer, got ${by}`, { ns, key, by });
    const v = await this.redis.incrOnce(this.hashKey(ns), this.opKey(), key, by, this.opTtl);
    return Number(v);
  }

  async append(ns: string, value: JsonValue): Promise<number> {
    return Number(await this.redis.appendOnce(this.listKey(ns), this.opKey(), JSON.stringify(value), this.opTtl));
  }

  async readLog<T extends JsonValue>(ns: string, from = 0): Promise<T[]> {
    const raw = await this.redis.lrange(this.listKey(ns), Math.max(0, from), -1);
    return raw.map((v, i) => this.parse<T>(v, ns, String(from + i)));
  }

  /** Removes every key of this store's prefix (tests, `tarang` state reset). Uses SCAN, not KEYS. */
  async clear(): Promise<void> {
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await this.redis.unlink(...keys);
    } while (cursor !== '0');
  }

  /** Waits for queued writes to be answered (QUIT is answered after them), then disconnects. */
  async close(timeoutMs = 5_000): Promise<void> {
    if (this.state === 'closed') return;
    this.closing = true;
    const quit = this.state === 'ready' ? this.redis.quit().then(() => true) : Promise.resolve(false);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const clean = await Promise.race([quit.catch(() => false), timeout]);
    clearTimeout(timer);
    if (!clean) {
      this.log?.warn('redis store: closed without confirmation of every queued write');
      this.redis.disconnect();
    }
    this.state = 'closed';
  }

  private hashKey(ns: string): string {
    return `${this.prefix}h:${ns}`;
  }

  private listKey(ns: string): string {
    return `${this.prefix}l:${ns}`;
  }

  private opKey(): string {
    return `${this.prefix}op:${randomUUID()}`;
  }

  private parse<T>(raw: string, ns: string, key: string): T {
    try {
      return JSON.parse(raw) as T;
    } catch (e) {
      throw new StoreError(`RedisStore: ${ns}.${key}: stored value is not JSON`, { ns, key }, { cause: e });
    }
  }
}

/** A URL without its password, fit for messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}
