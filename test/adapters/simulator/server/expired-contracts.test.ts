import { describe, expect, it } from 'vitest';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { silentLogger } from '../../../../src/core/log.js';
import { istDate, istDateTime } from '../../../../src/core/time.js';
import { assembleVenue, type AssembledVenue } from '../../../../src/adapters/simulator/server/venue-assembly.js';
import { Universe } from '../../../../src/adapters/simulator/universe/index.js';
import { scripToWsKey } from '../../../../src/adapters/simulator/ws/ws-messages.js';
import { startHarness, T0 } from './sim-harness.js';

const DAY = '2026-11-20';
const OPEN = istDateTime(DAY, '09:15');
const calendar = nseCalendar();
const small = { nseEquities: 40, bseEquities: 10 } as const;

function venue(clock: VirtualClock): Promise<AssembledVenue> {
  return assembleVenue({ clock, seed: 7, calendar, tsl: 'off', log: silentLogger(), ...small, pumpMs: 60_000 });
}

/** The nearest NIFTY weekly's CE and PE at the five strikes around the index: what a weekly-rolling strategy touches each morning. */
function nearestLegs(v: AssembledVenue, index: string): string[] {
  const u = v.universe();
  const expiry = u.currentExpiries('NIFTY')[0]!;
  const spot = v.quote(index)!.ltp;
  const legs = [...u.contracts('NIFTY', expiry)].sort((a, b) => Math.abs(a.strike! * 100 - spot) - Math.abs(b.strike! * 100 - spot)).slice(0, 10);
  return legs.map((c) => u.scripCodeOf(c)!);
}

describe('expired contracts in the live market', () => {
  it('stays bounded over weeks of a strategy rolling to new weeklies: expired contracts leave at the next open', async () => {
    const clock = new VirtualClock(OPEN);
    const v = await venue(clock);
    const index = v.universe().underlying('NIFTY')!.instrument.id;
    const future = v.universe().instruments().find((i) => i.kind === 'FUTIDX' && i.symbol === 'NIFTY' && i.expiry! > '2027-01-01')!;
    v.quote(future.id);
    const touched = new Set<string>();
    const sizes: number[] = [];
    let s = calendar.currentOrNextSession(OPEN);
    for (let day = 0; day < 20; day++) {
      clock.advanceTo(s.open + 45 * 60_000);
      for (const code of nearestLegs(v, index)) {
        touched.add(code);
        v.quote(code);
      }
      clock.advanceTo(s.open + 5 * 3_600_000);
      sizes.push(v.market.size);
      // Nothing past its expiry is modelled, and nothing expired is looked up again.
      const today = istDate(s.open);
      for (const code of touched) if (v.market.isActive(code)) expect(v.market.instrumentOf(code)!.expiry! >= today, code).toBe(true);
      s = calendar.currentOrNextSession(s.close + 1);
    }
    // Four weekly expiries went by: far more contracts were touched than are modelled at any time.
    expect(touched.size).toBeGreaterThan(40);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 + 30);
    expect(sizes.at(-1)!).toBeLessThanOrEqual(2 + 30);
    expect(v.market.modelCount).toBeLessThanOrEqual(10);
    // The future modelled since day one is still there, on today's session.
    expect(v.market.isActive(future.id)).toBe(true);
    expect(v.quote(future.id)!.ts).toBeGreaterThanOrEqual(calendar.currentOrNextSession(clock.now()).open - 86_400_000);
    v.close();
  });

  it('keeps the path of a contract that lives on when the expired ones of its model are dropped', async () => {
    const u = Universe.shared({ seed: 7, today: DAY, calendar, ...small });
    const [first, second] = u.currentExpiries('NIFTY') as [string, string];
    const pick = (expiry: string): string => u.scripCodeOf(u.contracts('NIFTY', expiry).find((c) => c.optionType === 'CE')!)!;
    const expiring = pick(first);
    const living = pick(second);
    const index = u.underlying('NIFTY')!.instrument.id;
    const after = calendar.currentOrNextSession(istDateTime(first, '16:00'));
    const run = async (codes: string[]): Promise<AssembledVenue> => {
      const clock = new VirtualClock(OPEN);
      const v = await venue(clock);
      v.market.activate(codes);
      clock.advanceTo(after.open + 90 * 60_000);
      return v;
    };
    const withExpiring = await run([index, expiring, living]);
    const alone = await run([index, living]);
    expect(withExpiring.market.isActive(expiring)).toBe(false);
    expect(withExpiring.market.size).toBe(2);
    const path = (v: AssembledVenue, code: string) => {
      const q = v.quote(code)!;
      return { ltp: q.ltp, open: q.open, high: q.high, low: q.low, prevClose: q.prevClose, volume: q.volume, oi: q.oi, bid: q.bid, ask: q.ask };
    };
    expect(path(withExpiring, living)).toEqual(path(alone, living));
    expect(path(withExpiring, index)).toEqual(path(alone, index));
    expect(withExpiring.quote(living)!.ts).toBeGreaterThanOrEqual(after.open);
    // The expired contract is no longer known: it is not modelled again.
    expect(withExpiring.quote(expiring)).toBeUndefined();
    withExpiring.close();
    alone.close();
  });

  it('ends WebSocket subscriptions to a contract once it has expired: no more ticks, its slot is free, and it cannot be subscribed again', async () => {
    // Tokens outlive the days the clock is moved by (the expiry is days away).
    const h = await startHarness({ rateLimits: false, tokenLifetimeMs: 10 * 86_400_000, ws: { maxInstruments: 2 } });
    try {
      const u = Universe.shared({ seed: 1, today: istDate(T0), calendar });
      const expiry = u.currentExpiries('NIFTY')[0]!;
      const code = u.scripCodeOf(u.contracts('NIFTY', expiry).find((c) => c.optionType === 'PE')!)!;
      const index = u.underlying('NIFTY')!.instrument.id;
      const c = await h.ws();
      c.send({ action: 'subscribe', mode: 'ltp', instruments: [scripToWsKey(code)] });
      await c.next((m) => m['type'] === 'ack');
      c.send({ action: 'subscribe', mode: 'ltp', instruments: [scripToWsKey(index)] });
      await c.next((m) => m['type'] === 'ack' && JSON.stringify(m['instruments']).includes(scripToWsKey(index)));
      const key = code.slice(code.indexOf('_') + 1);
      await c.next((m) => m['mode'] === 'ltp' && m['instrument'] === key);
      const next = calendar.currentOrNextSession(istDateTime(expiry, '16:00'));
      expect((await h.admin('POST', '/sim/clock', { set: next.open + 3 * 3_600_000 })).status).toBe(200);
      const indexKey = index.slice(index.indexOf('_') + 1);
      await c.next((m) => m['mode'] === 'ltp' && m['instrument'] === indexKey && (m['timestamp'] as number) >= next.open);
      const late = c.messages.filter((m) => {
        const t = m as Record<string, unknown>;
        return t['mode'] === 'ltp' && t['instrument'] === key && (t['timestamp'] as number) >= next.open;
      });
      expect(late).toEqual([]);
      // Two instruments a connection here: the expired contract's slot was given back.
      c.send({ action: 'subscribe', mode: 'ltp', instruments: ['NSE:2885'] });
      const taken = await c.next((m) => (m['type'] === 'ack' && JSON.stringify(m['instruments']).includes('NSE:2885')) || m['type'] === 'error');
      expect(taken).toMatchObject({ type: 'ack', instruments: ['NSE:2885'] });
      c.send({ action: 'subscribe', mode: 'ltp', instruments: [scripToWsKey(code)] });
      const refused = await c.next((m) => m['type'] === 'error');
      expect(String(refused['message'])).toMatch(/not a known instrument/);
      c.ws.close();
    } finally {
      await h.close();
    }
  });
});
