/** What history the strategies want before they trade: one need per candle series. */
import type { Interval } from '../core/candles.js';
import type { Strategy } from '../strategies/strategy.js';

/** A candle series a strategy wants history for before trading. */
export interface WarmupNeed {
  readonly instrument: string;
  readonly interval: Interval;
  readonly count: number;
}

/** The largest `warmup` per (instrument, interval) over the strategies that declare one. */
export function warmupNeedsOf(strategies: readonly Strategy[]): WarmupNeed[] {
  const need = new Map<string, WarmupNeed>();
  for (const s of strategies) {
    const w = s.warmup ?? 0;
    if (w <= 0) continue;
    for (const instrument of s.instruments) {
      for (const interval of s.intervals ?? []) {
        const k = `${instrument}|${interval}`;
        const cur = need.get(k);
        if (!cur || cur.count < w) need.set(k, { instrument, interval, count: w });
      }
    }
  }
  return [...need.values()];
}
