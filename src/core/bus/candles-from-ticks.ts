/**
 * The candle builder as an RxJS operator: ticks in, completed candles out, with bucket ends timed
 * on a scheduler (the clock's, or a TestScheduler in marble tests). Same `CandleBuilder` as the
 * engine's aggregator, so both close candles by the same rule.
 */
import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { Interval } from '../candles.js';
import type { CandleEvent, TickEvent } from '../events.js';
import { CandleBuilder } from './candle-builder.js';

export function candlesFromTicks(interval: Interval, scheduler: SchedulerLike): OperatorFunction<TickEvent, CandleEvent> {
  return (source) =>
    new Observable<CandleEvent>((sub) => {
      const builders = new Map<string, CandleBuilder>();
      const timers = new Map<string, { at: number; sub: Subscription }>();
      const arm = (b: CandleBuilder): void => {
        const end = b.pendingEnd;
        const t = timers.get(b.instrument);
        if (end === undefined || (t && t.at === end)) return;
        t?.sub.unsubscribe();
        const s = scheduler.schedule(() => {
          timers.delete(b.instrument);
          const c = b.flush(scheduler.now());
          if (c) sub.next(c);
        }, Math.max(0, end - scheduler.now()));
        timers.set(b.instrument, { at: end, sub: s });
      };
      const inner = source.subscribe({
        next: (tick) => {
          let b = builders.get(tick.instrument);
          if (!b) builders.set(tick.instrument, (b = new CandleBuilder(tick.instrument, interval)));
          const closed = b.onTick(tick);
          if (closed) sub.next(closed);
          arm(b);
        },
        error: (e: unknown) => sub.error(e),
        // On completion the open buckets are released at their ends, then the stream completes.
        complete: () => {
          if (timers.size === 0) sub.complete();
          else {
            const last = Math.max(...[...timers.values()].map((t) => t.at));
            scheduler.schedule(() => sub.complete(), Math.max(0, last - scheduler.now()));
          }
        },
      });
      return () => {
        inner.unsubscribe();
        for (const t of timers.values()) t.sub.unsubscribe();
      };
    });
}
