import { describe, expect, it } from 'vitest';
import { parseWalkForward, planWindows, sessionDates } from '../../../backtest/walk-forward/windows.js';
import { istDateTime } from '../../../src/core/time.js';

/** Weekdays from `from` to `to` inclusive, as session dates. */
function weekdays(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) {
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

describe('walk-forward windows', () => {
  it('parses train and test lengths in days, weeks, months and years, and refuses the rest by name', () => {
    expect(parseWalkForward('train=6mo,test=1mo')).toEqual({ train: { n: 6, unit: 'mo' }, test: { n: 1, unit: 'mo' } });
    expect(parseWalkForward('test=30d, train=120d')).toEqual({ train: { n: 120, unit: 'd' }, test: { n: 30, unit: 'd' } });
    expect(parseWalkForward('train=1y,test=2w')).toEqual({ train: { n: 1, unit: 'y' }, test: { n: 2, unit: 'w' } });
    expect(() => parseWalkForward('train=6mo')).toThrow(/give both, e.g. train=6mo,test=1mo/);
    expect(() => parseWalkForward('train=6m,test=1mo')).toThrow(/train=6m is not a length; use a whole number and d, w, mo or y/);
    expect(() => parseWalkForward('train=0d,test=1mo')).toThrow(/train=0d is not a length/);
    expect(() => parseWalkForward('train=6mo,test=1mo,step=1mo')).toThrow(/expected train=LENGTH,test=LENGTH/);
    expect(() => parseWalkForward('train=6mo,train=3mo,test=1mo')).toThrow(/train is given twice/);
  });

  it('months: calendar-aligned test months back to back, each train window the six months just before its test month', () => {
    const sessions = weekdays('2024-01-02', '2024-10-15');
    const w = planWindows(sessions, parseWalkForward('train=6mo,test=1mo'));
    expect(w.map((x) => [x.trainFrom, x.trainTo, x.testFrom, x.testTo])).toEqual([
      ['2024-01-01', '2024-07-01', '2024-07-01', '2024-08-01'],
      ['2024-02-01', '2024-08-01', '2024-08-01', '2024-09-01'],
      ['2024-03-01', '2024-09-01', '2024-09-01', '2024-10-01'],
      ['2024-04-01', '2024-10-01', '2024-10-01', '2024-11-01'],
    ]);
    expect(w.map((x) => x.partial)).toEqual([false, false, false, true]);
    expect(w[0]!.testSessions).toBe(23);
    for (let i = 0; i < w.length; i++) {
      // No look-ahead: a train window ends where its test window starts.
      expect(w[i]!.trainTo).toBe(w[i]!.testFrom);
      // The stitched out-of-sample span has no gap and no overlap.
      if (i > 0) expect(w[i]!.testFrom).toBe(w[i - 1]!.testTo);
    }
  });

  it('days: the first test window starts `train` days after the first session; mixed units align to the test unit', () => {
    const sessions = weekdays('2024-01-03', '2024-03-29');
    const d = planWindows(sessions, parseWalkForward('train=30d,test=20d'));
    expect(d[0]).toMatchObject({ trainFrom: '2024-01-03', testFrom: '2024-02-02', testTo: '2024-02-22' });
    expect(d.map((x) => x.testFrom)).toEqual(['2024-02-02', '2024-02-22', '2024-03-13']);
    const m = planWindows(sessions, parseWalkForward('train=30d,test=1mo'));
    // The data starts within a week of 2024-01-01; + 30 days = 2024-01-31, aligned up to February.
    expect(m.map((x) => [x.trainFrom, x.testFrom, x.testTo])).toEqual([
      ['2024-01-02', '2024-02-01', '2024-03-01'],
      ['2024-01-31', '2024-03-01', '2024-04-01'],
    ]);
    // Data from the 20th: the first train window starts on the next month's 1st.
    expect(planWindows(weekdays('2024-01-22', '2024-04-30'), parseWalkForward('train=1mo,test=1mo'))[0]).toMatchObject({ trainFrom: '2024-02-01', testFrom: '2024-03-01' });
  });

  it('drops a window without sessions and refuses data too short for one window', () => {
    // No session in March: its test window is dropped; April's train window (Feb-Mar) still has February.
    const sessions = [...weekdays('2024-01-01', '2024-02-28'), ...weekdays('2024-04-01', '2024-04-30')];
    const w = planWindows(sessions, parseWalkForward('train=1mo,test=1mo'));
    expect(w.map((x) => x.testFrom)).toEqual(['2024-02-01']);
    const w2 = planWindows(sessions, parseWalkForward('train=2mo,test=1mo'));
    expect(w2.map((x) => [x.trainFrom, x.testFrom])).toEqual([['2024-02-01', '2024-04-01']]);
    expect(w2.map((x) => x.index)).toEqual([1]);
    expect(() => planWindows(weekdays('2024-01-01', '2024-03-15'), parseWalkForward('train=6mo,test=1mo'))).toThrow(
      /the data covers 2024-01-01 to 2024-03-15, too short for one train window and a test window after it/,
    );
  });

  it('reads session dates as the IST date a candle opens on', () => {
    expect(sessionDates([[istDateTime('2024-03-01', '09:15'), istDateTime('2024-03-01', '15:29'), istDateTime('2024-02-29', '09:15')]])).toEqual(['2024-02-29', '2024-03-01']);
  });
});
