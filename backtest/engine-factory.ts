/**
 * The one place the backtester builds the daemon's engine (src/engine/engine.ts): candles are
 * fed whole (`buildCandles: false`), everything else is the daemon's own assembly. Kept apart so
 * the runner reads as the replay loop it is.
 */
import type { AlertEvent, DeniedEvent } from '../src/core/events.js';
import { Engine } from '../src/engine/engine.js';
import type { EngineOptions } from '../src/engine/engine-options.js';

export interface BacktestEngine {
  readonly engine: Engine;
  start(): Promise<void>;
  publishCandle: Engine['publishCandle'];
  stop(): Promise<void>;
  onDenied(fn: (d: DeniedEvent) => void): void;
  /** Alerts (a strategy paused after throwing, the kill switch, ...). */
  onAlert(fn: (a: AlertEvent) => void): void;
}

export async function createBacktestEngine(options: Omit<EngineOptions, 'buildCandles'>): Promise<BacktestEngine> {
  const engine = await Engine.create({ ...options, buildCandles: false, tagPrefix: options.tagPrefix ?? 'bt' });
  return {
    engine,
    start: () => engine.start(),
    publishCandle: (c) => engine.publishCandle(c),
    stop: () => engine.stop(),
    onDenied: (fn) => void engine.bus.on('denied', fn),
    onAlert: (fn) => void engine.bus.on('alert', fn),
  };
}
