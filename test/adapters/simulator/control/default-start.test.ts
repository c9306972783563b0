import { describe, expect, it } from 'vitest';
import { MarketCalendar } from '../../../../src/core/calendar.js';
import { istDateTime } from '../../../../src/core/time.js';
import { defaultStart } from '../../../../src/adapters/simulator/index.js';

const cal = new MarketCalendar({ holidays: ['2026-11-24'] });

describe('defaultStart', () => {
  it('is 09:15 IST of today on a trading day, whatever the hour', () => {
    expect(defaultStart(cal, istDateTime('2026-11-20', '07:00'))).toBe(istDateTime('2026-11-20', '09:15'));
    expect(defaultStart(cal, istDateTime('2026-11-20', '20:00'))).toBe(istDateTime('2026-11-20', '09:15'));
  });

  it('is 09:15 IST of the last trading day on a weekend or holiday', () => {
    expect(defaultStart(cal, istDateTime('2026-11-22', '11:00'))).toBe(istDateTime('2026-11-20', '09:15'));
    expect(defaultStart(cal, istDateTime('2026-11-24', '11:00'))).toBe(istDateTime('2026-11-23', '09:15'));
  });
});
