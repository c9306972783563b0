import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { istDateTime, istMidnight } from '../../../../src/core/time.js';
import { HistoryService, MinuteBarRecorder } from '../../../../src/adapters/simulator/history/index.js';
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
