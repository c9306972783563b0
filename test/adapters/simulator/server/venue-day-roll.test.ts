import { describe, expect, it } from 'vitest';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { silentLogger } from '../../../../src/core/log.js';
import { DAY_MS, IST_OFFSET_MS, istDateTime } from '../../../../src/core/time.js';
import { assembleVenue } from '../../../../src/adapters/simulator/server/venue-assembly.js';

const DAY = '2026-11-20'; // a Friday: the next session is Monday's
const OPEN = istDateTime(DAY, '09:15');
const calendar = nseCalendar();
const small = { nseEquities: 40, bseEquities: 10 } as const;

describe('venue across the date roll', () => {
  it("drops the day's minute bars at midnight IST, without waiting for the next session's first tick", async () => {
    const clock = new VirtualClock(OPEN);
    const v = await assembleVenue({ clock, seed: 7, calendar, tsl: 'off', log: silentLogger(), ...small, pumpMs: 60_000 });
    const code = v.universe().instruments().find((i) => i.kind === 'EQUITY')!.id;
    clock.advanceTo(istDateTime(DAY, '12:00'));
    v.quote(code);
    clock.advanceTo(istDateTime(DAY, '23:59'));
    expect(v.recorder.barCount).toBeGreaterThan(100);
    const midnight = (Math.floor((OPEN + IST_OFFSET_MS) / DAY_MS) + 1) * DAY_MS - IST_OFFSET_MS;
    clock.advanceTo(midnight);
    expect(v.recorder.barCount).toBe(0);
    // Saturday and Sunday pass without ticks; Monday's bars are Monday's.
    const monday = calendar.currentOrNextSession(midnight);
    clock.advanceTo(monday.open + 30 * 60_000);
    expect(v.recorder.barCount).toBeGreaterThan(0);
    expect(v.recorder.minuteBars(code, clock.now())![0]!.start).toBeGreaterThanOrEqual(monday.open);
    v.close();
  });
});
