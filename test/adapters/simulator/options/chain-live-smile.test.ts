/**
 * The chain a client reads over HTTP agrees with the simulator's own model: the live prices of a
 * call and a put at one strike imply (nearly) the same volatility, the one the volatility surface
 * gives for that strike, at the open and after the market has moved on the virtual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { istDate, istDateTime } from '../../../../src/core/time.js';
import { SIM_RISK_FREE_RATE, VolatilityModel } from '../../../../src/adapters/simulator/options/index.js';
import { Universe } from '../../../../src/adapters/simulator/universe/index.js';
import { startHarness, type Harness } from '../server/sim-harness.js';

interface Leg {
  readonly security_id: string;
  readonly ltp: number;
  readonly iv: number;
}
interface Chain {
  readonly underlying: { readonly ltp: number };
  readonly atm_strike: number;
  readonly strikes: readonly { readonly strike_price: number; readonly ce: Leg; readonly pe: Leg }[];
}

const SEED = 11;
const OPEN = istDateTime('2026-11-20', '09:15');
let h: Harness;
/** The simulator's clock: it starts a minute before the open (the harness's own starts later). */
const clock = new VirtualClock(OPEN - 60_000);

beforeAll(async () => {
  // Options tick every 20 s of market time, as by default.
  h = await startHarness({ seed: SEED, clock, venue: { tickIntervals: { cash: 2_000, futures: 2_000, options: 20_000 }, pumpMs: 1_000 } });
});
afterAll(() => h.close());

/** The configured smile at a strike (rupees) for the chain's spot (rupees) and the clock's time. */
function smile(strike: number, spot: number, expiry: string, now: number): number {
  const u = Universe.shared({ seed: SEED, today: istDate(now), calendar: nseCalendar() }).underlying('NIFTY')!;
  const years = (istDateTime(expiry, '15:30') - now) / (365 * 86_400_000);
  const forward = spot * Math.exp(SIM_RISK_FREE_RATE * years);
  return new VolatilityModel({ seed: SEED }).vol(u, istDate(now), strike, forward, years);
}

async function chainAt(expiry: string): Promise<Chain> {
  const r = await h.call<{ data: Chain }>('GET', `/market/option-chain?exchange=NSE&segment=INDEX&underlying-scrip=13&expiry=${expiry}&strike_count=10`);
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  return r.body.data;
}

function expectOnTheSmile(c: Chain, expiry: string): void {
  const now = clock.now();
  // The ATM strike and its neighbours: every pair within 0.2 vol points of each other and of the surface.
  const atm = c.strikes.findIndex((s) => s.strike_price === c.atm_strike);
  for (const s of c.strikes.slice(atm - 1, atm + 2)) {
    const model = smile(s.strike_price, c.underlying.ltp, expiry, now);
    const where = `${s.strike_price} at ${new Date(now).toISOString()}: CE ${s.ce.iv} PE ${s.pe.iv} model ${model.toFixed(4)}`;
    expect(Math.abs(s.ce.iv - s.pe.iv), where).toBeLessThan(0.002);
    expect(Math.abs(s.ce.iv - model), where).toBeLessThan(0.002);
    expect(Math.abs(s.pe.iv - model), where).toBeLessThan(0.002);
  }
}

describe('option chain against the live market', () => {
  it('reports ATM call and put IVs on the configured smile at the open and after the market moves', async () => {
    const exp = await h.call<{ data: string[] }>('GET', '/market/instruments/expiries?underlying=NIFTY&segment=DERIVATIVE');
    const expiry = exp.body.data.find((d) => istDateTime(d, '15:30') - OPEN > 2 * 86_400_000)!;
    expect((await h.admin('POST', '/sim/clock', { set: OPEN + 30_000 })).status).toBe(200);
    const first = await chainAt(expiry);
    expectOnTheSmile(first, expiry);
    // Two and a half hours on: the index has moved, and the same legs are still on the smile.
    for (let k = 0; k < 15; k++) await h.admin('POST', '/sim/clock', { advance_ms: 600_000 });
    const later = await chainAt(expiry);
    expect(later.underlying.ltp).not.toBe(first.underlying.ltp);
    expectOnTheSmile(later, expiry);
    // A forced jump of the index moves the options with it: calls up, puts down, still on the smile.
    const jump = Math.round(later.underlying.ltp * 1.01 * 100);
    expect((await h.admin('POST', '/sim/prices', { security_id: '13', exchange: 'NSE', price: jump / 100 })).status).toBe(200);
    await h.admin('POST', '/sim/clock', { advance_ms: 60_000 });
    const jumped = await chainAt(expiry);
    const legAt = (c: Chain, k: number) => c.strikes.find((s) => s.strike_price === k)!;
    const k = later.atm_strike;
    expect(legAt(jumped, k).ce.ltp).toBeGreaterThan(legAt(later, k).ce.ltp);
    expect(legAt(jumped, k).pe.ltp).toBeLessThan(legAt(later, k).pe.ltp);
    expectOnTheSmile(jumped, expiry);
  });
});
