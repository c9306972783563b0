/**
 * The logger that drops everything (the default of every component given none: the backtester,
 * sweep workers, tests, benches), without loading pino. A backtest never logs, and pino with its
 * streams and worker threads was a tenth of what `tarang backtest` compiled before its first
 * candle. It offers pino's Logger surface: test/core/silent-log.test.ts holds it to the methods of
 * pino's own silent logger, so code given one cannot tell them apart.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from 'pino';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 } as const;

class SilentLogger extends EventEmitter {
  level = 'silent';
  readonly levelVal = Infinity;
  readonly levels = { values: { ...LEVELS }, labels: Object.fromEntries(Object.entries(LEVELS).map(([k, v]) => [v, k])) };
  readonly msgPrefix = '';
  trace(): void {}
  debug(): void {}
  info(): void {}
  warn(): void {}
  error(): void {}
  fatal(): void {}
  silent(): void {}
  child(): SilentLogger {
    return new SilentLogger();
  }
  bindings(): Record<string, unknown> {
    return {};
  }
  setBindings(): void {}
  flush(cb?: (err?: Error) => void): void {
    cb?.();
  }
  isLevelEnabled(): boolean {
    return false;
  }
  onChild(): void {}
}

/** A logger that discards everything. */
export function silentLogger(): Logger {
  // pino's Logger type also lists pino's internal symbols, which only pino itself reads.
  return new SilentLogger() as unknown as Logger;
}
