import { describe, expect, it } from 'vitest';
import { MarketCalendar, nseCalendar, parseCalendar } from '../../src/core/calendar.js';
import { istDateTime } from '../../src/core/time.js';

describe('MarketCalendar (NSE)', () => {
  const cal = nseCalendar();

  it('opens at 09:15 and closes at 15:30 IST on a regular weekday', () => {
    const s = cal.session('2024-08-14');
    expect(s?.open).toBe(istDateTime('2024-08-14', '09:15'));
    expect(s?.close).toBe(istDateTime('2024-08-14', '15:30'));
    expect(cal.isOpen(istDateTime('2024-08-14', '09:14'))).toBe(false);
    expect(cal.isOpen(istDateTime('2024-08-14', '09:15'))).toBe(true);
    expect(cal.isOpen(istDateTime('2024-08-14', '15:29'))).toBe(true);
    expect(cal.isOpen(istDateTime('2024-08-14', '15:30'))).toBe(false);
  });

  it('closes on weekends and on holidays from the data file', () => {
    expect(cal.isTradingDay('2024-08-17')).toBe(false); // Saturday
    expect(cal.isTradingDay('2024-08-18')).toBe(false); // Sunday
    expect(cal.isTradingDay('2024-08-15')).toBe(false); // Independence Day
    expect(cal.isTradingDay('2024-01-22')).toBe(false); // special holiday
    expect(cal.tradingDays('2024-08-12', '2024-08-19')).toEqual(['2024-08-12', '2024-08-13', '2024-08-14', '2024-08-16', '2024-08-19']);
  });

  it('knows special sessions: a Saturday session and Diwali Muhurat', () => {
    expect(cal.isTradingDay('2024-01-20')).toBe(true);
    const muhurat = cal.session('2024-11-01');
    expect(muhurat?.open).toBe(istDateTime('2024-11-01', '18:00'));
    expect(muhurat?.special).toMatch(/Muhurat/);
  });

  it('steps to the next and previous trading day across a long weekend', () => {
    expect(cal.nextTradingDay('2024-08-14')).toBe('2024-08-16');
    expect(cal.previousTradingDay('2024-08-19')).toBe('2024-08-16');
  });

  it('finds the current or next session from any instant', () => {
    const friEvening = istDateTime('2024-08-16', '16:00');
    expect(cal.currentOrNextSession(friEvening).date).toBe('2024-08-19');
    expect(cal.currentOrPreviousSession(friEvening).date).toBe('2024-08-16');
    expect(cal.currentOrNextSession(istDateTime('2024-08-16', '10:00')).date).toBe('2024-08-16');
  });

  it('matches every trading day of the real NIFTY 2024 file it can see (sampled)', () => {
    // Days present in ../shared/data NIFTY50_2024_1min.csv around holidays.
    for (const d of ['2024-01-19', '2024-01-23', '2024-03-07', '2024-03-11', '2024-05-21']) expect(cal.isTradingDay(d)).toBe(true);
  });

  it('rejects a malformed calendar file naming the key', () => {
    expect(() => parseCalendar('last_checked: x\nregular_session: {open: "9", close: "15:30"}\nholidays: {}\n', 'cal.yaml')).toThrow(
      /cal\.yaml: regular_session\.open: expected HH:MM/,
    );
  });

  it('can be built from plain data', () => {
    const c = new MarketCalendar({ holidays: ['2025-01-01'] });
    expect(c.isTradingDay('2025-01-01')).toBe(false);
    expect(c.isTradingDay('2025-01-02')).toBe(true);
  });
});
