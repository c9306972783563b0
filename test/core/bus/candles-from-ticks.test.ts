import { asyncScheduler } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { candlesFromTicks } from '../../../src/core/bus/candles-from-ticks.js';
import type { CandleEvent, TickEvent } from '../../../src/core/events.js';

// Epoch 0 is 05:30 IST; 1-minute buckets anchored at 09:15 IST fall on whole minutes from 0.
const tick = (ts: number, ltp: number, volume?: number): TickEvent => ({
  type: 'tick',
  ts,
  instrument: 'NSE_1',
  ltp,
  ...(volume !== undefined ? { volume } : {}),
});

function newScheduler(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('candlesFromTicks (marble)', () => {
  it('releases a candle only when its bucket has closed, by time or by a later tick', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const ticks = cold('a 9999ms b 19999ms c 39999ms d 9999ms |', {
        a: tick(0, 100, 1000),
        b: tick(10_000, 105, 1500),
        c: tick(30_000, 95, 1600),
        d: tick(70_000, 101, 2000),
      });
      const first: CandleEvent = { type: 'candle', ts: 60_000, instrument: 'NSE_1', interval: '1minute', start: 0, open: 100, high: 105, low: 95, close: 95, volume: 600 };
      const second: CandleEvent = { type: 'candle', ts: 120_000, instrument: 'NSE_1', interval: '1minute', start: 60_000, open: 101, high: 101, low: 101, close: 101, volume: 400 };
      // The first candle is released by the clock at 60 s, not at the 70 s tick.
      expectObservable(ticks.pipe(candlesFromTicks('1minute', asyncScheduler))).toBe('60000ms x 59999ms (y|)', { x: first, y: second });
    });
  });

  it('a tick in a later bucket closes the open candle at once', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      // Ticks stamped with event time ahead of the scheduler (a replay): the 5-minute tick closes the bucket.
      const ticks = cold('a b |', { a: tick(0, 100), b: tick(300_000, 110) });
      const first: CandleEvent = { type: 'candle', ts: 60_000, instrument: 'NSE_1', interval: '1minute', start: 0, open: 100, high: 100, low: 100, close: 100, volume: 0 };
      const out = ticks.pipe(candlesFromTicks('1minute', asyncScheduler));
      const second: CandleEvent = { type: 'candle', ts: 360_000, instrument: 'NSE_1', interval: '1minute', start: 300_000, open: 110, high: 110, low: 110, close: 110, volume: 0 };
      expectObservable(out).toBe('-x 359998ms (y|)', { x: first, y: second });
    });
  });

  it('ignores a late tick for a bucket already released', () => {
    newScheduler().run(({ cold, expectObservable }) => {
      const ticks = cold('a 60000ms b |', { a: tick(0, 100), b: tick(59_000, 1) });
      const first: CandleEvent = { type: 'candle', ts: 60_000, instrument: 'NSE_1', interval: '1minute', start: 0, open: 100, high: 100, low: 100, close: 100, volume: 0 };
      expectObservable(ticks.pipe(candlesFromTicks('1minute', asyncScheduler))).toBe('60000ms x -|', { x: first });
    });
  });
});

