import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { expirySeries } from '../../../../src/adapters/simulator/universe/expiry-calendar.js';
import { Universe } from '../../../../src/adapters/simulator/universe/index.js';
import { indexExpiryEras } from '../../../../src/risk/rules/expiry-weekdays.js';
import { sharedData } from '../../../support/shared-data.js';

const data = sharedData();
const nifty = { expiries: indexExpiryEras('NIFTY')! };

describe('expiry calendar against real NSE expiries', () => {
  it.skipIf(!data.available)('reproduces every NIFTY monthly expiry of 2021-2024 in the NSE option bhavcopies', () => {
    const text = readFileSync(data.path('nse-options/NIFTY_monthly_options_eod_2021_2024.csv'), 'utf8');
    const lines = text.trimEnd().split('\n');
    const col = lines[0]!.split(',').indexOf('EXPIRY');
    const real = [...new Set(lines.slice(1).map((l) => l.split(',')[col]!))].sort();
    expect(real.length).toBeGreaterThan(40);
    const mine = expirySeries(nifty.expiries, nseCalendar(), '2021-01-01', '2024-12-31')
      .filter((e) => e.kind === 'M')
      .map((e) => e.date);
    // The file skips a few months; every month it has must match ours exactly (holiday moves
    // included). One known exception: the file labels the June 2023 contracts 2023-06-29, a day our
    // calendar (config/calendar/nse.yaml) has as the Bakri Id holiday (moved there at short notice
    // that month), so the holiday rule puts the expiry on 28 June.
    const mismatches = real
      .map((r) => [r, mine.find((m) => m.slice(0, 7) === r.slice(0, 7))])
      .filter(([r, m]) => r !== m);
    expect(mismatches).toEqual([['2023-06-29', '2023-06-28']]);
  });

  it.skipIf(!data.available)('lists the same expiries, futures and lot sizes as the August 2026 reference master', () => {
    const u = Universe.build({ seed: 1, today: '2026-08-14', calendar: nseCalendar(), nseEquities: 250, bseEquities: 10 });
    const rows = readFileSync(data.path('reference/kite_fno_instruments_2026.csv'), 'utf8').trimEnd().split('\n').slice(1).map((l) => l.split(','));
    for (const sym of ['NIFTY', 'BANKNIFTY', 'FINNIFTY', 'MIDCPNIFTY', 'SENSEX', 'BANKEX', 'RELIANCE', 'HDFCBANK', 'INFY', 'TCS']) {
      const mine = u.currentExpiries(sym);
      const of = rows.filter((r) => r[3] === sym);
      // The reference also lists half-yearly contracts years out, which the simulator leaves out.
      const ref = [...new Set(of.map((r) => r[5]!))].sort().filter((d) => d <= mine.at(-1)!);
      expect(mine, sym).toEqual(ref);
      const refFut = [...new Set(of.filter((r) => r[9] === 'FUT').map((r) => r[5]!))].sort();
      expect(mine.filter((e) => u.contracts(sym, e).some((c) => c.strike === null)), sym).toEqual(refFut);
      expect(u.contracts(sym, mine[0]!)[0]!.lotSize, sym).toBe(Number(of[0]![8]));
    }
  });

  it('never lists a weekly in the week of a monthly expiry, and moves holiday expiries back', () => {
    const cal = nseCalendar();
    const s = expirySeries(nifty.expiries, cal, '2022-01-01', '2026-12-31');
    const weekOf = (d: string) => {
      const t = new Date(`${d}T00:00:00Z`);
      return new Date(t.getTime() - ((t.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    };
    const monthlyWeeks = new Set(s.filter((e) => e.kind === 'M').map((e) => weekOf(e.date)));
    for (const e of s) {
      expect(cal.isHoliday(e.date)).toBe(false);
      if (e.kind === 'W') expect(monthlyWeeks.has(weekOf(e.date))).toBe(false);
    }
    // 2024-03-29 (Good Friday) is no Thursday, but 2022-10-27 shows an ordinary Thursday monthly.
    expect(s.map((e) => e.date)).toContain('2022-10-27');
    expect(s.map((e) => e.date)).toContain('2026-11-23'); // Tuesday 24 November 2026 is a holiday
  });
});

describe('expired contracts keep the lot and weekday of their era (config/market-rules)', () => {
  const u = Universe.build({ seed: 3, today: '2026-08-14', calendar: nseCalendar(), nseEquities: 10, bseEquities: 2 });
  it('lists BANKNIFTY 2025 monthlies with the lot in force at each expiry and on that era\'s weekday', () => {
    const lotOf = (expiry: string) => u.contracts('BANKNIFTY', expiry)[0]!.lotSize;
    // Last Thursday until August 2025 (lot 30, then 35 from the July 2025 expiry), last Tuesday since.
    expect(lotOf('2025-06-26')).toBe(30);
    expect(lotOf('2025-07-31')).toBe(35);
    expect(lotOf('2025-09-30')).toBe(35);
    expect(u.contracts('BANKNIFTY', '2025-09-25')).toEqual([]);
  });
});
