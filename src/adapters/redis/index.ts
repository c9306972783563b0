/** Redis-backed parts: the durable `Store` and its URL factory (the shared rate-limit budget lives in limiter*). */
export { RedisStore, StoreError, DEFAULT_RECONNECT, redactUrl } from './store.js';
export type { RedisStoreOptions, ReconnectPolicy, StoreConnectionState } from './store.js';
export { createStore, isDurableStore } from './create-store.js';
export type { CreateStoreOptions } from './create-store.js';
