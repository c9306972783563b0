/**
 * Simulator data side: universe build, history generation and option chains.
 * - build of the default universe (2,400 NSE + 1,000 BSE equities, ~65,000 current contracts);
 * - a generated trading day of 1-minute candles for 3,000 instruments (issue 3: < 10 s);
 * - one-year daily history of 5 scrip codes (the widest single historical call);
 * - the expired chain of a NIFTY weekly, and a 21-strike NIFTY option chain with greeks;
 * - the first live option chain of a run's 1st and 10th trading day (its legs are modelled then:
 *   the cost must not grow with the age of the run), NIFTY watched from the start.
 */
import type { BenchResult } from './run.js';
import { VirtualClock } from '../src/core/clock.js';
import { nseCalendar } from '../src/core/calendar.js';
import { silentLogger } from '../src/core/log.js';
import { istDateTime, istMidnight } from '../src/core/time.js';
import { assembleVenue } from '../src/adapters/simulator/server/venue-assembly.js';
import { HistoryService } from '../src/adapters/simulator/history/index.js';
import { OptionChainService } from '../src/adapters/simulator/options/index.js';
import { Universe, expiredContracts } from '../src/adapters/simulator/universe/index.js';

export const name = 'simulator data (universe, history, option chain)';

const TODAY = '2026-11-20';

function time(fn: () => void, reps = 1): number {
  const t = performance.now();
  for (let i = 0; i < reps; i++) fn();
  return (performance.now() - t) / reps;
}

export async function run(): Promise<BenchResult[]> {
  const calendar = nseCalendar();
  Universe.build({ seed: 1, today: TODAY, calendar, nseEquities: 200, bseEquities: 50 }); // warm the JIT
  let u!: Universe;
  const buildMs = time(() => {
    u = Universe.build({ seed: 7, today: TODAY, calendar });
  });
  const clock = new VirtualClock(istDateTime(TODAY, '15:30'));
  const history = new HistoryService({ universe: u, clock });
  const chains = new OptionChainService({ universe: u, history, clock });

  const equities = u.instruments().filter((i) => i.kind === 'EQUITY').slice(0, 3000);
  let bars = 0;
  const dayMs = time(() => {
    for (const i of equities) bars += history.minuteBars(i.id, '2026-11-19').length;
  });

  const codes = 'NSE_2885,NSE_1333,NSE_1594,NSE_11536,NIDX_13';
  const yearMs = time(() => {
    history.historical('1day', { 'scrip-codes': codes, start_time: String(istMidnight('2025-11-20')), end_time: String(istMidnight(TODAY)) });
  });

  const expiry = u.expiredExpiries('NIFTY').at(-1)!;
  const expiredMs = time(() => {
    expiredContracts(u, { underlying: 'NIFTY', segment: 'DERIVATIVE', expiry });
  }, 20);

  const q = { exchange: 'NSE', segment: 'INDEX', 'underlying-scrip': '13', expiry: u.currentExpiries('NIFTY')[0]! };
  chains.chain(q);
  const chainMs = time(() => chains.chain(q), 20);

  return [
    { metric: 'universe build (default size)', value: buildMs, unit: 'ms', lowerIsBetter: true, note: `${u.instruments().length} instruments` },
    { metric: 'trading day of 1-minute candles, 3,000 instruments', value: dayMs / 1000, unit: 's', target: 10, lowerIsBetter: true, note: `${bars} bars` },
    { metric: '1-year daily history, 5 scrip codes', value: yearMs, unit: 'ms', lowerIsBetter: true },
    { metric: 'expired NIFTY weekly chain', value: expiredMs, unit: 'ms', lowerIsBetter: true },
    { metric: 'NIFTY option chain, 21 strikes with greeks', value: chainMs, unit: 'ms', lowerIsBetter: true },
    ...(await firstLiveChain(calendar)),
  ];
}

/** The first live chain call at 10:00 of a run's `day`-th trading day (best of 3 fresh runs), NIFTY quoted since the start. */
async function firstLiveChain(calendar: ReturnType<typeof nseCalendar>): Promise<BenchResult[]> {
  const once = async (day: number): Promise<number> => {
    const start = istDateTime('2026-11-02', '09:15');
    const clock = new VirtualClock(start);
    const v = await assembleVenue({ clock, seed: 7, calendar, tsl: 'off', log: silentLogger(), nseEquities: 200, bseEquities: 50, pumpMs: 60_000 });
    v.quote('NIDX_13');
    let s = calendar.currentOrNextSession(start);
    for (let k = 1; k < day; k++) s = calendar.currentOrNextSession(s.close + 1);
    clock.advanceTo(s.open + 45 * 60_000);
    const q = { exchange: 'NSE', segment: 'INDEX', 'underlying-scrip': '13', expiry: v.universe().currentExpiries('NIFTY')[0]!, strike_count: '10' };
    const ms = time(() => v.data.optionChain(q));
    v.close();
    return ms;
  };
  const best = async (day: number): Promise<number> => Math.min(await once(day), await once(day), await once(day));
  await once(1); // warm the JIT
  const day1 = await best(1);
  const day10 = await best(10);
  return [
    { metric: "first live option chain (21 strikes), a run's day 1", value: day1, unit: 'ms', lowerIsBetter: true, note: 'legs modelled by the call' },
    { metric: "first live option chain (21 strikes), a run's day 10", value: day10, unit: 'ms', lowerIsBetter: true, note: `${(day10 / day1).toFixed(2)}x day 1` },
  ];
}
