/** One simulated universe per test file (building one takes about a second). */
import { nseCalendar } from '../../../../src/core/calendar.js';
import { Universe } from '../../../../src/adapters/simulator/universe/index.js';

export const TEST_TODAY = '2026-11-20';
let cached: Universe | undefined;

export function testUniverse(): Universe {
  cached ??= Universe.build({ seed: 11, today: TEST_TODAY, calendar: nseCalendar(), nseEquities: 600, bseEquities: 300 });
  return cached;
}
