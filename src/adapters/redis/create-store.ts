/**
 * A `Store` from a URL: `memory` (the default; state lives as long as the process) or
 * `redis://host:port/db` / `rediss://...` (state survives restarts).
 */
import { MemoryStore, type Store } from '../../core/store.js';
import type { Logger } from '../../core/log.js';
import { RedisStore, StoreError, redactUrl } from './store.js';

export interface CreateStoreOptions {
  /** Key prefix for Redis (one per account or daemon). */
  readonly prefix?: string;
  readonly log?: Logger;
}

export function createStore(url: string, options: CreateStoreOptions = {}): Store {
  if (url === 'memory') return new MemoryStore();
  if (/^rediss?:\/\//.test(url)) {
    return new RedisStore({ url, ...(options.prefix ? { prefix: options.prefix } : {}), ...(options.log ? { log: options.log } : {}) });
  }
  throw new StoreError(`store: expected "memory" or a redis:// URL, got ${JSON.stringify(redactUrl(url))}`, { url: redactUrl(url) });
}

/** True when the store keeps state across restarts. */
export function isDurableStore(store: Store): boolean {
  return store instanceof RedisStore;
}
