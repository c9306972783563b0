import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { istDateTime, istMidnight } from '../../../../src/core/time.js';
import { HistoryService, MinuteBarRecorder } from '../../../../src/adapters/simulator/history/index.js';
import { MinuteColumns } from '../../../../src/adapters/simulator/history/minute-columns.js';
import { TEST_TODAY, testUniverse } from '../support/universe.js';

const at = (hhmmss: string): number => istDateTime(TEST_TODAY, hhmmss);

describe('MinuteBarRecorder', () => {
  it('folds ticks into 09:15-anchored minute bars with traded volume from the cumulative count', () => {
    const rec = new MinuteBarRecorder();
    rec.record({ instrument: 'NSE_2885', ts: at('09:15:05'), ltp: 150000, volume: 100 });
    rec.record({ instrument: 'NSE_2885', ts: at('09:15:30'), ltp: 150500, volume: 160 });
    rec.record({ instrument: 'NSE_2885', ts: at('09:15:59'), ltp: 149800, volume: 200 });
    rec.record({ instrument: 'NSE_2885', ts: at('09:16:10'), ltp: 150100, volume: 260, oi: 5 });
    expect(rec.minuteBars('NSE_2885', at('09:17'))).toEqual([
      { start: at('09:15'), open: 150000, high: 150500, low: 149800, close: 149800, volume: 100 },
      { start: at('09:16'), open: 150100, high: 150100, low: 150100, close: 150100, volume: 60, oi: 5 },
    ]);
    expect(rec.minuteBars('NSE_2885', at('09:16'))).toHaveLength(1);
    expect(rec.minuteBars('NSE_1333', at('09:17'))).toBeUndefined();
  });

  it('starts afresh on a new day and caps the instruments it tracks', () => {
    const rec = new MinuteBarRecorder(1);
    rec.record({ instrument: 'A', ts: at('10:00'), ltp: 100 });
    rec.record({ instrument: 'B', ts: at('10:00'), ltp: 100 });
    expect(rec.size).toBe(1);
    expect(rec.minuteBars('B', at('11:00'))).toBeUndefined();
    const tomorrow = istMidnight(TEST_TODAY) + 86_400_000 + 10 * 3_600_000;
    rec.record({ instrument: 'B', ts: tomorrow, ltp: 100 });
    expect(rec.minuteBars('A', tomorrow + 60_000)).toBeUndefined();
    expect(rec.minuteBars('B', tomorrow + 60_000)).toHaveLength(1);
    expect(() => new MinuteBarRecorder(0)).toThrow(/maxInstruments/);
  });

  it("lets go of a day's bars once the day has ended, not before", () => {
    const rec = new MinuteBarRecorder();
    rec.record({ instrument: 'A', ts: at('10:00'), ltp: 100 });
    rec.record({ instrument: 'A', ts: at('15:29'), ltp: 101 });
    const midnight = istMidnight(TEST_TODAY) + 86_400_000;
    rec.release(midnight - 1);
    expect(rec.minuteBars('A', midnight - 1)).toHaveLength(2);
    rec.release(midnight);
    expect(rec.size).toBe(0);
    expect(rec.barCount).toBe(0);
    // Recording starts again on the next tick, of whichever day it is.
    rec.record({ instrument: 'A', ts: midnight + 10 * 3_600_000, ltp: 102 });
    expect(rec.minuteBars('A', midnight + 11 * 3_600_000)).toHaveLength(1);
  });

  it('serves today through HistoryService, the generator filling minutes before recording began', () => {
    const u = testUniverse();
    const h = new HistoryService({ universe: u, clock: new VirtualClock(at('10:30')) });
    const generated = h.minuteBars('NSE_2885', TEST_TODAY);
    const rec = new MinuteBarRecorder();
    for (let m = 0; m < 20; m++) rec.record({ instrument: 'NSE_2885', ts: at('10:00') + m * 60_000 + 1000, ltp: 200000 + m * 5, volume: m * 10 });
    h.setLiveSource(rec);
    const minutes = h.candles({ scripCode: 'NSE_2885' }, '1minute', istMidnight(TEST_TODAY), at('10:30'))!;
    expect(minutes).toHaveLength(45 + 20);
    expect(minutes.slice(0, 45)).toEqual(generated.slice(0, 45));
    expect(minutes[45]).toMatchObject({ start: at('10:00'), close: 200000 });
    const hour = h.candles({ scripCode: 'NSE_2885' }, '60minute', istMidnight(TEST_TODAY), at('10:30'))!;
    // The 09:15 hour holds generated 09:15-09:59 and recorded 10:00-10:14 (last close 200070).
    expect(hour[0]!.high).toBe(Math.max(200070, ...generated.slice(0, 45).map((b) => b.high)));
    expect(hour[0]!.close).toBe(200070);
  });
});

describe('MinuteColumns', () => {
  const minute = (k: number): number => at('09:15') + k * 60_000;

  it('holds a whole session of bars exactly, growing as the day goes', () => {
    const c = new MinuteColumns();
    for (let k = 0; k < 375; k++) {
      c.add(minute(k), 100_000 + k, k * 10, undefined);
      c.add(minute(k) + 30_000, 99_000 - k, k * 10 + 4, undefined);
    }
    expect(c.length).toBe(375);
    const bars = c.bars(minute(375));
    expect(bars).toHaveLength(375);
    expect(bars[374]).toEqual({ start: minute(374), open: 100_374, high: 100_374, low: 98_626, close: 98_626, volume: 10 });
    expect(bars[0]).toEqual({ start: minute(0), open: 100_000, high: 100_000, low: 99_000, close: 99_000, volume: 4 });
    expect(c.bars(minute(100))).toHaveLength(100);
  });

  it('keeps prices and volumes beyond 32 bits exact, before and after the bars that fit', () => {
    const c = new MinuteColumns();
    c.add(minute(0), 150_000, 0, undefined);
    c.add(minute(1), 3_000_000_000, 5_000_000_000, undefined);
    c.add(minute(2), 150_000.5, 5_000_000_100, undefined);
    for (let k = 3; k < 40; k++) c.add(minute(k), 150_000, 5_000_000_100 + k, undefined);
    const bars = c.bars(minute(40));
    expect(bars.slice(0, 3)).toEqual([
      { start: minute(0), open: 150_000, high: 150_000, low: 150_000, close: 150_000, volume: 0 },
      { start: minute(1), open: 3_000_000_000, high: 3_000_000_000, low: 3_000_000_000, close: 3_000_000_000, volume: 5_000_000_000 },
      { start: minute(2), open: 150_000.5, high: 150_000.5, low: 150_000.5, close: 150_000.5, volume: 100 },
    ]);
    expect(bars[39]).toMatchObject({ close: 150_000, volume: 1 });
  });

  it('reports open interest only on bars whose ticks carried it, and ignores a tick from an earlier minute', () => {
    const c = new MinuteColumns();
    c.add(minute(0), 100, 10, undefined);
    for (let k = 1; k < 20; k++) c.add(minute(k), 100, 10 + k, k % 2 === 0 ? 1000 + k : undefined);
    c.add(minute(5), 1, 40, 7);
    const bars = c.bars(minute(20));
    expect(bars[0]).not.toHaveProperty('oi');
    expect(bars[1]).not.toHaveProperty('oi');
    expect(bars[2]).toMatchObject({ oi: 1002 });
    expect(bars[19]).toMatchObject({ low: 100, volume: 1 });
    expect(Math.min(...bars.map((b) => b.low))).toBe(100);
  });
});
