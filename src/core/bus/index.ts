/**
 * The event bus (the engine that composes it with strategies, risk and execution is src/engine/):
 * - `event-bus.ts`: one ordered stream of Events, hot-path handlers, RxJS views, backpressure
 * - `slow-consumer.ts`: the buffer for slow/async consumers (ticks conflate, order events never drop)
 * - `candle-builder.ts`, `candle-aggregator.ts`, `candles-from-ticks.ts`: candles from ticks on
 *   09:15-anchored buckets, released when their bucket closes (by tick or by clock)
 */
export { EventBus, type Handler, type Unsubscribe } from './event-bus.js';
export { SlowConsumer, type SlowConsumerOptions } from './slow-consumer.js';
export { CandleBuilder } from './candle-builder.js';
export { CandleAggregator } from './candle-aggregator.js';
export { candlesFromTicks } from './candles-from-ticks.js';
