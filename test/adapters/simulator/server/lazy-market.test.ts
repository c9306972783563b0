import { describe, expect, it } from 'vitest';
import { nseCalendar } from '../../../../src/core/calendar.js';
import { VirtualClock } from '../../../../src/core/clock.js';
import { silentLogger } from '../../../../src/core/log.js';
import { istDate, istDateTime } from '../../../../src/core/time.js';
import { HistoryService } from '../../../../src/adapters/simulator/history/index.js';
import { SIM_RISK_FREE_RATE } from '../../../../src/adapters/simulator/options/index.js';
import { LiveMarket } from '../../../../src/adapters/simulator/server/live-market.js';
import { assembleVenue } from '../../../../src/adapters/simulator/server/venue-assembly.js';
import { Universe } from '../../../../src/adapters/simulator/universe/index.js';
import type { MarketTick } from '../../../../src/adapters/simulator/market/index.js';

const DAY = '2026-11-20';
const OPEN = istDateTime(DAY, '09:15');
const calendar = nseCalendar();
const small = { nseEquities: 40, bseEquities: 10 } as const;

function venue(clock: VirtualClock) {
  return assembleVenue({ clock, seed: 7, calendar, tsl: 'off', log: silentLogger(), ...small, pumpMs: 60_000 });
}

/** The fields of a tick that describe the path (not when it was asked for). */
const pathOf = (t: MarketTick | undefined) => t && { ltp: t.ltp, open: t.open, high: t.high, low: t.low, close: t.close, volume: t.volume, bid: t.bid, ask: t.ask, oi: t.oi };

describe('lazy live market', () => {
  const universe = Universe.shared({ seed: 7, today: DAY, calendar, ...small });
  const equities = universe.instruments().filter((i) => i.kind === 'EQUITY').slice(0, 3);
  const option = universe.instruments().find((i) => i.kind === 'OPTIDX')!;
  const [a, b, c] = equities.map((i) => i.id) as [string, string, string];

  it('gives an instrument the same path whenever and alongside whatever it was first touched', () => {
    const lookup = (code: string) => universe.get(code);
    const run = (touch: (m: LiveMarket, clock: VirtualClock) => void): LiveMarket => {
      const clock = new VirtualClock(OPEN);
      const m = new LiveMarket({ clock, calendar, lookup, seed: 7, log: silentLogger(), pumpMs: 1000 });
      touch(m, clock);
      return m;
    };
    // All up front (the old eager behaviour) versus one at the open and the rest late, one by one.
    const eager = (() => {
      const clock = new VirtualClock(OPEN);
      const m = new LiveMarket({ clock, calendar, instruments: [...equities, option], seed: 7, log: silentLogger(), pumpMs: 1000 });
      clock.advanceTo(istDateTime(DAY, '13:07'));
      m.step();
      return m;
    })();
    const late = run((m, clock) => {
      m.activate([b]);
      clock.advanceTo(istDateTime(DAY, '11:00'));
      m.step();
      m.activate([c]);
      clock.advanceTo(istDateTime(DAY, '13:07'));
      m.step();
      m.activate([option.id]);
      m.activate([a]);
    });
    const together = run((m, clock) => {
      clock.advanceTo(istDateTime(DAY, '13:07'));
      m.activate([option.id, c, a, b]);
    });
    for (const code of [a, b, c, option.id]) {
      expect(pathOf(late.last(code)), code).toEqual(pathOf(eager.last(code)));
      expect(pathOf(together.last(code)), code).toEqual(pathOf(eager.last(code)));
    }
    // Only what was touched is modelled.
    expect(late.size).toBe(4);
  });

  it('keeps paths when the model merges instruments touched one by one, across a session roll', () => {
    const lookup = (code: string) => universe.get(code);
    const clockA = new VirtualClock(OPEN);
    const one = new LiveMarket({ clock: clockA, calendar, lookup, seed: 7, log: silentLogger(), pumpMs: 1000 });
    for (const code of [a, b, c]) one.last(code); // three models, merged at the next step
    const clockB = new VirtualClock(OPEN);
    const batch = new LiveMarket({ clock: clockB, calendar, lookup, seed: 7, log: silentLogger(), pumpMs: 1000 });
    batch.activate([a, b, c]);
    const next = calendar.currentOrNextSession(istDateTime(DAY, '16:00'));
    // Stepped as the pump would (start() needs an engine): every 10 minutes, through the night.
    for (let t = OPEN; t <= next.open + 3_600_000; t += 600_000) {
      clockA.advanceTo(t);
      clockB.advanceTo(t);
      one.step();
      batch.step();
    }
    for (const code of [a, b, c]) expect(pathOf(one.last(code))).toEqual(pathOf(batch.last(code)));
    expect(one.last(a)!.ts).toBeGreaterThanOrEqual(next.open);
  });

  it('merges instruments touched one at a time through the day into few models, paths unchanged', () => {
    const lookup = (code: string) => universe.get(code);
    const many = universe.instruments().filter((i) => i.kind === 'EQUITY').slice(0, 20);
    const clock = new VirtualClock(OPEN);
    const m = new LiveMarket({ clock, calendar, lookup, seed: 7, log: silentLogger(), pumpMs: 1000 });
    many.forEach((inst, k) => {
      clock.advanceTo(OPEN + (k + 1) * 600_000);
      m.step();
      m.activate([inst.id]);
    });
    clock.advanceTo(OPEN + 21 * 600_000);
    m.step();
    expect(m.modelCount).toBeLessThanOrEqual(9);
    const eagerClock = new VirtualClock(OPEN);
    const eager = new LiveMarket({ clock: eagerClock, calendar, instruments: many, seed: 7, log: silentLogger(), pumpMs: 1000 });
    eagerClock.advanceTo(clock.now());
    eager.step();
    for (const inst of many) expect(pathOf(m.last(inst.id)), inst.id).toEqual(pathOf(eager.last(inst.id)));
  });

  it('prices an option off its underlying the same whether they were touched together, apart, or after a forced index price', async () => {
    const u = universe;
    const expiry = u.currentExpiries('NIFTY')[1]!;
    const ce = u.contracts('NIFTY', expiry).find((k) => k.optionType === 'CE' && k.strike === u.contracts('NIFTY', expiry).map((x) => x.strike!).sort((x, y) => x - y)[10])!;
    const option = u.scripCodeOf(ce)!;
    const index = u.underlying('NIFTY')!.instrument.id;
    const noon = istDateTime(DAY, '12:00');
    const run = async (touch: (v: Awaited<ReturnType<typeof venue>>, clock: VirtualClock) => void) => {
      const clock = new VirtualClock(OPEN);
      const v = await venue(clock);
      touch(v, clock);
      clock.advanceTo(istDateTime(DAY, '13:07'));
      v.quote(option);
      v.quote(index);
      return v;
    };
    const jump = (v: Awaited<ReturnType<typeof venue>>, clock: VirtualClock): void => {
      clock.advanceTo(istDateTime(DAY, '10:30'));
      v.market.step();
      expect(v.setPrice(index, Math.round(v.market.last(index)!.ltp * 1.02))).toMatchObject({ ok: true });
    };
    // Together from the open; the index first and the option late (priced off a silent copy); both late.
    const together = await run((v) => v.market.activate([option, index]));
    const apart = await run((v, clock) => {
      v.quote(index);
      clock.advanceTo(noon);
      v.market.step();
    });
    const late = await run(() => {});
    for (const v of [apart, late]) {
      expect(pathOf(v.market.last(option))).toEqual(pathOf(together.market.last(option)));
      expect(pathOf(v.market.last(index))).toEqual(pathOf(together.market.last(index)));
    }
    // The option's last price is the model value at the index value it was made at, on the surface.
    const mark = together.market.linkedMark(option)!;
    const model = together.universe();
    expect(mark.ltp).toBe(Math.max(ce.tickSize, Math.round(new HistoryService({ universe: model, clock: new VirtualClock(OPEN) }).pricer.modelValuer(model.underlying('NIFTY')!, ce)(mark.spot, mark.ts) / ce.tickSize) * ce.tickSize));
    // A forced index price is followed by an option modelled before it and by one modelled after it.
    const jumpedTogether = await run((v, clock) => {
      v.market.activate([option, index]);
      jump(v, clock);
    });
    const jumpedLate = await run((v, clock) => {
      v.quote(index);
      jump(v, clock);
    });
    expect(pathOf(jumpedLate.market.last(option))).toEqual(pathOf(jumpedTogether.market.last(option)));
    expect(pathOf(jumpedLate.market.last(index))).toEqual(pathOf(jumpedTogether.market.last(index)));
    expect(jumpedTogether.market.last(option)!.ltp).not.toBe(together.market.last(option)!.ltp);
    for (const v of [together, apart, late, jumpedTogether, jumpedLate]) v.close();
  });

  it('keeps a future at cost of carry over its index, touched with it or after it', async () => {
    const fut = universe.instruments().find((i) => i.kind === 'FUTIDX' && i.symbol === 'NIFTY')!;
    const index = universe.underlying('NIFTY')!.instrument.id;
    const clock = new VirtualClock(OPEN);
    const v = await venue(clock);
    v.quote(index);
    clock.advanceTo(istDateTime(DAY, '12:30'));
    const q = v.quote(fut.id)!;
    const mark = v.market.linkedMark(fut.id)!;
    const years = (istDateTime(fut.expiry!, '15:30') - mark.ts) / (365 * 86_400_000);
    expect(q.ltp).toBe(Math.round((mark.spot * Math.exp(SIM_RISK_FREE_RATE * years)) / fut.tickSize) * fut.tickSize);
    // The basis stays the carry whatever the index did since the open (the future may have last ticked a slot before it).
    const spot = v.market.last(index)!.ltp;
    expect(Math.abs(q.ltp - spot * Math.exp(SIM_RISK_FREE_RATE * years))).toBeLessThan(spot * 0.001);
    expect(q.prevClose).toBe(new HistoryService({ universe: v.universe(), clock }).previousClose(fut.id, DAY));
    v.close();
  });

  it('prices an option first touched the next trading day off the same index path as one touched with it', async () => {
    const expiry = universe.currentExpiries('NIFTY')[1]!;
    const option = universe.scripCodeOf(universe.contracts('NIFTY', expiry).find((k) => k.optionType === 'PE')!)!;
    const index = universe.underlying('NIFTY')!.instrument.id;
    const nextDay = calendar.currentOrNextSession(istDateTime(DAY, '16:00'));
    const run = async (touch: (v: Awaited<ReturnType<typeof venue>>, clock: VirtualClock) => void) => {
      const clock = new VirtualClock(OPEN);
      const v = await venue(clock);
      touch(v, clock);
      return v;
    };
    const together = await run((v, clock) => {
      v.market.activate([index, option]);
      clock.advanceTo(nextDay.open + 90 * 60_000);
    });
    const nextMorning = await run((v, clock) => {
      v.quote(index);
      clock.advanceTo(nextDay.open + 90 * 60_000);
      v.quote(option);
    });
    expect(pathOf(nextMorning.market.last(option))).toEqual(pathOf(together.market.last(option)));
    expect(nextMorning.market.last(option)!.ts).toBeGreaterThanOrEqual(nextDay.open);
    together.close();
    nextMorning.close();
  });

  it('carries prices forced on the index and a stock two sessions back into an option first touched today', async () => {
    const expiry = universe.currentExpiries('NIFTY').at(-1)!;
    const option = universe.scripCodeOf(universe.contracts('NIFTY', expiry).find((k) => k.optionType === 'CE')!)!;
    const index = universe.underlying('NIFTY')!.instrument.id;
    let third = calendar.currentOrNextSession(istDateTime(DAY, '16:00'));
    third = calendar.currentOrNextSession(third.close + 1);
    const run = async (late: boolean) => {
      const clock = new VirtualClock(OPEN);
      const v = await venue(clock);
      v.market.activate(late ? [index] : [index, option, a]);
      clock.advanceTo(istDateTime(DAY, '11:00'));
      v.market.step();
      expect(v.setPrice(index, Math.round(v.market.last(index)!.ltp * 0.97))).toMatchObject({ ok: true });
      expect(v.setPrice(a, Math.round(v.market.last(a)!.ltp * 1.05))).toMatchObject({ ok: true });
      clock.advanceTo(third.open + 60 * 60_000);
      v.market.activate([option, a]);
      return v;
    };
    const early = await run(false);
    const late = await run(true);
    for (const code of [option, index, a]) expect(pathOf(late.market.last(code)), code).toEqual(pathOf(early.market.last(code)));
    expect(late.market.last(option)!.ts).toBeGreaterThanOrEqual(third.open);
    early.close();
    late.close();
  });

  it('starts in well under a second once the universe is built, modelling nothing up front', async () => {
    const clock = new VirtualClock(OPEN);
    await (await venue(clock)).close();
    const v = await venue(clock);
    expect(v.market.size).toBe(0);
    v.close();
  });

  it("answers today's candles with the ticks the quotes describe, and opens at the history's previous close", async () => {
    const clock = new VirtualClock(OPEN);
    const v = await venue(clock);
    clock.advanceTo(istDateTime(DAY, '11:30') + 30_000);
    const q = v.quote(a)!; // first touch at 11:30:30: modelled from the open and caught up
    const r = v.data.historical('1minute', { 'scrip-codes': a, start_time: String(OPEN), end_time: String(clock.now() + 60_000) });
    expect(r.ok).toBe(true);
    const candles = (r as { ok: true; data: Record<string, { candles: { ts: number; o: number; h: number; l: number; c: number }[] }> }).data[a]!.candles;
    expect(candles[0]!.ts * 1000).toBe(OPEN);
    expect(candles.at(-1)!.ts * 1000).toBe(istDateTime(DAY, '11:30'));
    expect(Math.round(candles[0]!.o * 100)).toBe(q.open);
    expect(Math.round(Math.max(...candles.map((k) => k.h)) * 100)).toBe(q.high);
    expect(Math.round(Math.min(...candles.map((k) => k.l)) * 100)).toBe(q.low);
    expect(Math.round(candles.at(-1)!.c * 100)).toBe(q.ltp);
    const history = new HistoryService({ universe: v.universe(), clock });
    expect(q.prevClose).toBe(history.previousClose(a, DAY));
    v.close();
  });

  it('rolls the universe to the new trading date: expired weeklies leave the listing, contract ids stay', async () => {
    const clock = new VirtualClock(OPEN);
    const v = await venue(clock);
    const before = v.universe();
    const [first, second] = before.currentExpiries('NIFTY') as [string, string];
    const kept = before.contracts('NIFTY', second).find((k) => k.optionType === 'CE')!;
    const code = before.scripCodeOf(kept)!;
    v.quote(code);
    const after = calendar.currentOrNextSession(istDateTime(first, '16:00'));
    clock.advanceTo(after.open + 60_000);
    const rolled = v.universe();
    expect(rolled.today).toBe(istDate(after.open));
    expect(rolled.currentExpiries('NIFTY')).not.toContain(first);
    expect(rolled.currentExpiries('NIFTY')).toContain(second);
    expect(rolled.scripCodeOf(rolled.contractBySymbol(kept.tradingSymbol)!)).toBe(code);
    const listed = v.data.listExpiries({ underlying: 'NIFTY', segment: 'DERIVATIVE' });
    expect(listed).toMatchObject({ ok: true });
    expect((listed as { data: string[] }).data).not.toContain(first);
    expect((listed as { data: string[] }).data).toContain(second);
    expect(v.quote(code)!.ts).toBeGreaterThanOrEqual(after.open);
    // The old date's universe is no longer kept for the process (a run of many days holds one).
    const again = Universe.shared({ seed: 7, today: DAY, calendar, ...small });
    expect(again).not.toBe(before);
    expect(Universe.shared({ seed: 7, today: DAY, calendar, ...small })).toBe(again);
    v.close();
  });
});
