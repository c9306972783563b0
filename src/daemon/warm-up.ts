/**
 * Strategy warm-up from history at daemon start: each strategy gets the candles it declared
 * (`warmup` per instrument and interval, see Engine.warmupNeeds) so it can trade from the first
 * live candle instead of warming up in real time. A series whose history cannot be fetched is
 * logged and left to warm up live.
 */
import type { Clock } from '../core/clock.js';
import { intervalMs } from '../core/candles.js';
import type { CandleEvent } from '../core/events.js';
import type { Logger } from '../core/log.js';
import type { Engine } from '../engine/engine.js';
import type { BrokerSession } from './parts.js';

/** Returns the candles fed (the session recording's header keeps them, so a replay warms up alike). */
export async function warmUpFromHistory(engine: Engine, session: BrokerSession, clock: Clock, log: Logger): Promise<CandleEvent[]> {
  const needs = engine.warmupNeeds();
  if (needs.length === 0) return [];
  const now = clock.now();
  const all: CandleEvent[] = [];
  for (const n of needs) {
    // Enough calendar time for `count` candles across nights, weekends and holidays.
    const span = n.count * intervalMs(n.interval);
    const days = Math.ceil(span / (375 * 60_000)) + 5;
    const from = now - Math.max(span, days * 86_400_000);
    try {
      const got = (await session.history(n.instrument, n.interval, from, now)).filter((c) => c.ts <= now);
      all.push(...got.slice(-n.count));
      if (got.length < n.count) log.warn({ ...n, got: got.length }, 'daemon: less history than the warm-up needs; the rest warms up live');
    } catch (e) {
      log.warn({ ...n, err: e }, 'daemon: history for warm-up unavailable; the series warms up live');
    }
  }
  all.sort((a, b) => a.ts - b.ts || a.instrument.localeCompare(b.instrument));
  engine.feedWarmup(all);
  log.info({ series: needs.length, candles: all.length }, 'daemon: strategies warmed up from history');
  return all;
}
