/**
 * The broker adapter: how tarang talks to the broker, live or simulated (same code, other URLs).
 *
 *   config.ts          connection settings (zod; config file or TARANG_* environment)
 *   broker.ts          createBroker(): transport + client + tokens + streams for one account
 *   client.ts          a typed call per endpoint of spec section 4; writes reconciled by remarks
 *   http.ts            undici keep-alive pool, limits, auth, error mapping, retry policy for reads
 *   retry-policy.ts    the retry policy as data (backoff with jitter, Retry-After)
 *   rate-categories.ts spec 8 categories and which path is in which
 *   rate-limiter.ts    one limiter per category per process (+ Redis budget: ../redis/limiter.ts)
 *   token-manager.ts   configured or TOTP-generated token, renewal, lockout avoidance
 *   errors.ts          coded errors (TokenException, OrderException, ... RateLimited)
 *   order-status.ts    broker status spellings -> core OrderStatus
 *   schemas/           every wire shape, one file per resource (zod, tolerant decoding)
 *   venue-codec.ts     broker records -> ExecutionVenue shapes
 *   venue.ts           BrokerVenue: the ExecutionVenue for live and paper trading
 *   ws/                WebSocket: frame decoder (hot path), resilient socket, market data, order updates
 *   helpers/           batched quotes, paged+cached candles, contract iterators, instrument master cache
 */
export * from './errors.js';
export { loadBrokerConfig, parseBrokerConfig, brokerEnv, BrokerConfigSchema, type BrokerConfig, type BrokerConfigInput } from './config.js';
export { Broker, createBroker, type BrokerOptions } from './broker.js';
export { BrokerClient, type WriteAnswer } from './client.js';
export { BrokerHttp } from './http.js';
export { TokenManager, BlockReason } from './token-manager.js';
export { RateLimiters, CategoryLimiter, sharedRateLimiters, type SharedBudget } from './rate-limiter.js';
export { RateCategory, DEFAULT_LIMITS, categoryOf } from './rate-categories.js';
export { RetryPolicySchema, type RetryPolicy } from './retry-policy.js';
export { normaliseStatus } from './order-status.js';
export { BrokerVenue, BROKER_CAPABILITIES } from './venue.js';
export { MarketDataStream } from './ws/market-data.js';
export { OrderUpdateStream } from './ws/order-updates.js';
export { FrameDecoder } from './ws/frame-decoder.js';
export { fullQuotes, ltpQuotes } from './helpers/quotes.js';
export { fetchCandleRange, candleWindows } from './helpers/candles.js';
export { contractPages, expiredContractPages, searchContracts, searchExpiredContracts } from './helpers/contracts.js';
export { loadInstrumentMaster } from './helpers/instrument-master.js';
export { defaultCacheDir } from './helpers/cache-dir.js';
