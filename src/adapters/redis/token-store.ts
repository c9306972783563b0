/**
 * The shared broker session on Redis, for tarang processes of one account on several hosts (or
 * when the daemon already keeps its state there): the state as JSON at `tarang:session:<key>`,
 * the generation lock at `tarang:session:<key>:lock` taken with `SET NX PX` (Redis expires it if
 * the holder dies) and released only by its holder (compare-and-delete in Lua).
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { parseTokenState, TokenStateSchema, TokenStoreError, type TokenLock, type TokenState, type TokenStore } from '../broker/token-store.js';
import { redactUrl } from './store.js';

const RELEASE_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface ReleasingRedis extends Redis {
  releaseLock(key: string, id: string): Promise<number>;
}

export interface RedisTokenStoreOptions {
  /** `redis://host:port/db`. */
  readonly url: string;
  /** From `accountKey()`. */
  readonly key: string;
  readonly connectTimeoutMs?: number;
}

export class RedisTokenStore implements TokenStore {
  readonly where: string;
  private readonly redis: ReleasingRedis;
  private readonly stateKey: string;
  private readonly lockKey: string;

  constructor(o: RedisTokenStoreOptions) {
    if (!/^rediss?:\/\//.test(o.url)) throw new TokenStoreError(`RedisTokenStore: url must start with redis://, got ${JSON.stringify(redactUrl(o.url))}`, { url: redactUrl(o.url) });
    this.stateKey = `tarang:session:${o.key}`;
    this.lockKey = `${this.stateKey}:lock`;
    this.where = `${redactUrl(o.url)} ${this.stateKey}`;
    // A one-shot command must fail with a message when Redis is down, not queue forever.
    this.redis = new Redis(o.url, { maxRetriesPerRequest: 2, connectTimeout: o.connectTimeoutMs ?? 5_000, lazyConnect: false }) as ReleasingRedis;
    this.redis.defineCommand('releaseLock', { numberOfKeys: 1, lua: RELEASE_LUA });
    this.redis.on('error', () => {});
  }

  async read(): Promise<TokenState> {
    const raw = await this.run('read', () => this.redis.get(this.stateKey));
    return raw === null ? { rejections: [] } : parseTokenState(raw, this.where);
  }

  async write(state: TokenState): Promise<void> {
    const text = JSON.stringify(TokenStateSchema.parse(state));
    await this.run('write', () => this.redis.set(this.stateKey, text));
  }

  async tryLock(ttlMs: number): Promise<TokenLock | undefined> {
    const id = randomBytes(8).toString('hex');
    const ok = await this.run('lock', () => this.redis.set(this.lockKey, id, 'PX', Math.max(1, Math.round(ttlMs)), 'NX'));
    if (ok !== 'OK') return undefined;
    return { release: async () => void (await this.run('unlock', () => this.redis.releaseLock(this.lockKey, id))) };
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private async run<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw new TokenStoreError(`shared broker session at ${this.where}: ${what} failed: ${(e as Error).message}`, { where: this.where }, { cause: e });
    }
  }
}
