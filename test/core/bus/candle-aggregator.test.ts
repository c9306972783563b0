import { describe, expect, it } from 'vitest';
import { CandleAggregator } from '../../../src/core/bus/candle-aggregator.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { CandleEvent } from '../../../src/core/events.js';
import { istDateTime } from '../../../src/core/time.js';

const T0 = istDateTime('2025-01-06', '09:15');
const MIN = 60_000;

describe('CandleAggregator on a virtual clock', () => {
  it('closes 09:15-anchored buckets when the clock passes their end, for every instrument at once', () => {
    const clock = new VirtualClock(T0);
    const out: CandleEvent[] = [];
    const agg = new CandleAggregator(clock, (c) => out.push(c));
    agg.add('NSE_1', '5minute');
    agg.add('NSE_2', '5minute');
    agg.add('NSE_1', '1minute');
    const tick = (instrument: string, at: number, ltp: number) => {
      clock.advanceTo(at);
      agg.onTick({ type: 'tick', ts: at, instrument, ltp });
    };
    tick('NSE_1', T0 + 10_000, 100);
    tick('NSE_2', T0 + 20_000, 200);
    tick('NSE_1', T0 + 2 * MIN, 104);
    expect(out.map((c) => `${c.instrument}/${c.interval}@${(c.ts - T0) / MIN}`)).toEqual(['NSE_1/1minute@1']);
    clock.advanceTo(T0 + 5 * MIN - 1);
    expect(out).toHaveLength(2); // the 1-minute candle of 09:17 closed at 09:18
    clock.advanceTo(T0 + 5 * MIN);
    const five = out.filter((c) => c.interval === '5minute');
    expect(five.map((c) => [c.instrument, c.start, c.ts, c.open, c.close])).toEqual([
      ['NSE_1', T0, T0 + 5 * MIN, 100, 104],
      ['NSE_2', T0, T0 + 5 * MIN, 200, 200],
    ]);
  });

  it('anchors 60-minute buckets at 09:15 and caps the last one at 15:30', () => {
    const clock = new VirtualClock(istDateTime('2025-01-06', '15:20'));
    const out: CandleEvent[] = [];
    const agg = new CandleAggregator(clock, (c) => out.push(c));
    agg.add('NSE_1', '60minute');
    agg.onTick({ type: 'tick', ts: clock.now(), instrument: 'NSE_1', ltp: 100 });
    clock.advanceTo(istDateTime('2025-01-06', '15:30'));
    expect(out).toHaveLength(1);
    expect(out[0]!.start).toBe(istDateTime('2025-01-06', '15:15'));
    expect(out[0]!.ts).toBe(istDateTime('2025-01-06', '15:30'));
  });
});
