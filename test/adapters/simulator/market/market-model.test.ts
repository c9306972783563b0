import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/core/clock.js';
import { InstrumentTable, type Instrument } from '../../../../src/core/instruments.js';
import { istDateTime, MINUTE_MS } from '../../../../src/core/time.js';
import { MarketModel, activity, syntheticSpec, type MarketInstrumentSpec, type MarketTick } from '../../../../src/adapters/simulator/market/index.js';
import { MatchingEngine, noCharges } from '../../../../src/adapters/simulator/matching/index.js';

const OPEN = istDateTime('2026-11-20', '09:15');
const CLOSE = istDateTime('2026-11-20', '15:30');

function equity(n: number, tickSize = 5): Instrument {
  return { id: `NSE_${100 + n}`, exchange: 'NSE', segment: 'EQUITY', securityId: String(100 + n), kind: 'EQUITY', tradingSymbol: `EQ${n}`, symbol: `EQ${n}`, lotSize: 1, tickSize };
}

const FUT: Instrument = {
  id: 'NFO_43219', exchange: 'NSE', segment: 'FNO', securityId: '43219', kind: 'FUTIDX', tradingSymbol: 'NIFTY25NOVFUT', symbol: 'NIFTY', lotSize: 75, tickSize: 10, expiry: '2026-11-26',
};

function specs(count: number, seed = 7): MarketInstrumentSpec[] {
  return [...Array.from({ length: count }, (_, i) => syntheticSpec(equity(i), seed)), syntheticSpec(FUT, seed)];
}

function play(model: MarketModel, to: number, stepMs: number): MarketTick[] {
  const out: MarketTick[] = [];
  for (let t = OPEN; t <= to; t += stepMs) out.push(...model.advanceTo(t));
  return out;
}

describe('market model', () => {
  it('is deterministic for a seed, different for another, and independent of how time is advanced', () => {
    const END = OPEN + 10 * MINUTE_MS;
    const a = play(new MarketModel(specs(10), { seed: 1, sessionOpen: OPEN }), END, 1000);
    const b = play(new MarketModel(specs(10), { seed: 1, sessionOpen: OPEN }), END, 1000);
    const coarse = play(new MarketModel(specs(10), { seed: 1, sessionOpen: OPEN }), END, 7 * MINUTE_MS);
    const oneGo = new MarketModel(specs(10), { seed: 1, sessionOpen: OPEN }).advanceTo(END);
    const other = play(new MarketModel(specs(10), { seed: 2, sessionOpen: OPEN }), END, 1000);
    expect(a.length).toBeGreaterThan(10 * 290);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(oneGo)).toBe(JSON.stringify(a));
    expect(coarse.length).toBeLessThanOrEqual(a.length);
    expect(JSON.stringify(coarse)).toBe(JSON.stringify(a.slice(0, coarse.length)));
    expect(other.map((t) => t.ltp)).not.toEqual(a.map((t) => t.ltp));
  });

  it('ticks every instrument at the open (mode open) and then in time order, on tick size, with a consistent book', () => {
    const model = new MarketModel(specs(12), { seed: 3, sessionOpen: OPEN });
    const ticks = model.advanceTo(CLOSE);
    const first = ticks.slice(0, 13);
    expect(first.every((t) => t.ts === OPEN && t.mode === 'open')).toBe(true);
    expect(new Set(first.map((t) => t.instrument)).size).toBe(13);
    // Plain checks per tick (an expect per tick would dominate the run time); report the first bad one.
    const bad = ticks.find((t, k) => {
      const tick = t.instrument === FUT.id ? 10 : 5;
      return (
        (k > 0 && t.ts < ticks[k - 1]!.ts) ||
        t.ts < OPEN ||
        t.ts >= CLOSE ||
        t.ltp % tick !== 0 ||
        !(t.bid < t.ask) ||
        (t.ltp !== t.bid && t.ltp !== t.ask) ||
        t.low > t.ltp ||
        t.high < t.ltp ||
        t.ltp > t.upperCircuit ||
        t.ltp < t.lowerCircuit
      );
    });
    expect(bad).toBeUndefined();
    const fut = ticks.filter((t) => t.instrument === FUT.id);
    expect(fut.every((t) => typeof t.oi === 'number' && t.oi > 0)).toBe(true);
    expect(ticks.filter((t) => t.instrument !== FUT.id).every((t) => t.oi === undefined)).toBe(true);
    // Cumulative volume never falls within the day.
    const vols = fut.map((t) => t.volume);
    expect(vols.every((v, k) => k === 0 || v >= vols[k - 1]!)).toBe(true);
  });

  it('holds prices inside the circuit band centred on the previous close', () => {
    const wild: MarketInstrumentSpec = { instrument: equity(0), prevClose: 10_000, volatility: 8, circuitPct: 0.05 };
    const model = new MarketModel([wild], { seed: 11, sessionOpen: OPEN, tickIntervalMs: 1000 });
    const ticks = model.advanceTo(CLOSE);
    const q = model.quote(wild.instrument.id);
    expect(q.upperCircuit).toBe(10_500);
    expect(q.lowerCircuit).toBe(9_500);
    expect(ticks.every((t) => t.ltp >= 9_500 && t.ltp <= 10_500)).toBe(true);
    expect(ticks.some((t) => t.ltp === 10_500 || t.ltp === 9_500)).toBe(true);
  });

  it('is busier at the open and the close than at midday (U-shaped activity)', () => {
    expect(activity(0)).toBeGreaterThan(2 * activity(0.5));
    expect(activity(1)).toBeGreaterThan(1.5 * activity(0.5));
    let sum = 0;
    for (let k = 0; k < 10_000; k++) sum += activity((k + 0.5) / 10_000);
    expect(sum / 10_000).toBeCloseTo(1, 3);
    const model = new MarketModel(specs(20), { seed: 5, sessionOpen: OPEN });
    const volumeAt = (ts: number): number => {
      model.advanceTo(ts);
      return model.instrumentIds().reduce((s, id) => s + model.quote(id).volume, 0);
    };
    const v0 = volumeAt(OPEN + 15 * MINUTE_MS - 1);
    const v1 = volumeAt(OPEN + 180 * MINUTE_MS - 1);
    const v2 = volumeAt(OPEN + 195 * MINUTE_MS - 1);
    expect(v0).toBeGreaterThan(2 * (v2 - v1));
  });

  it('builds a deterministic 5-level depth around the top of book', () => {
    const model = new MarketModel(specs(3), { seed: 9, sessionOpen: OPEN });
    model.advanceTo(OPEN + 10 * MINUTE_MS);
    const id = FUT.id;
    const d = model.depth(id);
    const last = model.last(id);
    expect(d.bids).toHaveLength(5);
    expect(d.asks).toHaveLength(5);
    expect(d.bids[0]).toEqual({ price: last.bid, qty: last.bidQty });
    expect(d.asks[0]).toEqual({ price: last.ask, qty: last.askQty });
    for (let k = 1; k < 5; k++) {
      expect(d.bids[k]!.price).toBeLessThan(d.bids[k - 1]!.price);
      expect(d.asks[k]!.price).toBeGreaterThan(d.asks[k - 1]!.price);
    }
    expect([...d.bids, ...d.asks].every((l) => l.qty > 0 && l.qty % 75 === 0)).toBe(true);
    expect(model.depth(id)).toEqual(d);
    const q = model.quote(id);
    expect(q.totalBuyQty).toBeGreaterThan(0);
    expect(q.dayChange).toBe(q.ltp - q.prevClose);
  });

  it('overrides a price on tick and inside the band, as a jump the path continues from', () => {
    const model = new MarketModel(specs(2), { seed: 4, sessionOpen: OPEN });
    const id = equity(0).id;
    model.advanceTo(OPEN + MINUTE_MS);
    const q = model.quote(id);
    const t = model.setPrice(id, q.prevClose + 1_003, OPEN + MINUTE_MS + 1);
    expect(t.ltp).toBe(q.prevClose + 1_005);
    expect(t.mode).toBe('open');
    expect(model.lastPrice(id)).toBe(t.ltp);
    const clamped = model.setPrice(id, q.prevClose * 3, OPEN + MINUTE_MS + 2);
    expect(clamped.ltp).toBe(q.upperCircuit);
    const next = model.advanceTo(OPEN + 2 * MINUTE_MS).filter((x) => x.instrument === id);
    expect(Math.abs(next[0]!.ltp - q.upperCircuit)).toBeLessThan(q.upperCircuit * 0.01);
    expect(() => model.setPrice('NSE_999999', 100, 0)).toThrow(/no instrument/);
  });

  it('rolls to the next session: the last price becomes the previous close and the open gaps', () => {
    const model = new MarketModel(specs(2), { seed: 4, sessionOpen: OPEN });
    model.advanceTo(CLOSE);
    const id = equity(1).id;
    const lastPrice = model.lastPrice(id)!;
    const nextOpen = OPEN + 24 * 60 * MINUTE_MS;
    model.startSession(nextOpen);
    const ticks = model.advanceTo(nextOpen).filter((t) => t.instrument === id);
    expect(ticks).toHaveLength(1);
    expect(ticks[0]!.close).toBe(lastPrice);
    expect(ticks[0]!.mode).toBe('open');
    expect(ticks[0]!.volume).toBe(ticks[0]!.lastQty);
    expect(() => model.startSession(nextOpen)).toThrow(RangeError);
  });

  it('feeds the matching engine directly: a resting limit fills when the path crosses it', () => {
    const inst = equity(0);
    const spec: MarketInstrumentSpec = { instrument: inst, prevClose: 100_000, volatility: 0.6 };
    const model = new MarketModel([spec], { seed: 21, sessionOpen: OPEN, tickIntervalMs: 1000 });
    const clock = new VirtualClock(OPEN);
    const engine = new MatchingEngine({ instruments: new InstrumentTable([inst]), clock, depth: (id) => model.depth(id), accountOptions: { charges: noCharges } });
    for (const t of model.advanceTo(OPEN)) engine.onMarket(t);
    const open = model.lastPrice(inst.id)!;
    const limit = open - 300;
    const r = engine.placeOrder({ instrument: inst.id, side: 'BUY', qty: 1, orderType: 'LIMIT', limitPrice: limit, validity: 'DAY', product: 'INTRADAY' });
    let crossedAt: number | undefined;
    for (let t = OPEN + 1000; t < CLOSE && crossedAt === undefined; t += 1000) {
      clock.advanceTo(t);
      for (const tick of model.advanceTo(t)) {
        engine.onMarket(tick);
        if (crossedAt === undefined && tick.ask <= limit) crossedAt = tick.ts;
      }
    }
    expect(crossedAt).toBeDefined();
    const trades = engine.trades(r.orderId);
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ price: limit, ts: crossedAt });
  });

  it('validates its options and specs with messages naming the field', () => {
    expect(() => new MarketModel([], { seed: 1.5, sessionOpen: OPEN })).toThrow(/seed/);
    expect(() => new MarketModel([{ instrument: equity(0), prevClose: -5 }], { seed: 1, sessionOpen: OPEN })).toThrow(/NSE_100: prevClose/);
    expect(() => new MarketModel([syntheticSpec(equity(0), 1), syntheticSpec(equity(0), 1)], { seed: 1, sessionOpen: OPEN })).toThrow(/twice/);
  });

  it('models an index without volume or open interest', () => {
    const nifty: Instrument = { id: 'NIDX_13', exchange: 'NSE', segment: 'INDEX', securityId: '13', kind: 'INDEX', tradingSymbol: 'NIFTY', symbol: 'NIFTY', lotSize: 1, tickSize: 5 };
    const model = new MarketModel([{ instrument: nifty, prevClose: 2_400_000 }], { seed: 2, sessionOpen: OPEN });
    const ticks = model.advanceTo(OPEN + 10 * MINUTE_MS);
    expect(ticks.length).toBeGreaterThan(100);
    expect(ticks.every((t) => t.volume === 0 && t.oi === undefined)).toBe(true);
    expect(new Set(ticks.map((t) => t.ltp)).size).toBeGreaterThan(5);
  });

  it('gives synthetic previous closes on tick and plausible for the kind', () => {
    for (let i = 0; i < 50; i++) {
      const s = syntheticSpec(equity(i), 3);
      expect(s.prevClose % 5).toBe(0);
      expect(s.prevClose).toBeGreaterThanOrEqual(5_000);
      expect(s.prevClose).toBeLessThanOrEqual(500_000);
    }
    expect(syntheticSpec(FUT, 3).prevClose).toBeGreaterThan(2_390_000);
  });
});

describe('options linked to their underlying', () => {
  const NIFTY: Instrument = { id: 'NIDX_13', exchange: 'NSE', segment: 'INDEX', securityId: '13', kind: 'INDEX', tradingSymbol: 'NIFTY', symbol: 'NIFTY', lotSize: 1, tickSize: 5 };
  const opt = (id: string, type: 'CE' | 'PE', strike: number): Instrument => ({
    id, exchange: 'NSE', segment: 'FNO', securityId: id.slice(4), kind: 'OPTIDX', tradingSymbol: `NIFTY26NOV${strike / 100}${type}`, symbol: 'NIFTY',
    lotSize: 75, tickSize: 5, expiry: '2026-11-26', strike, optionType: type,
  });
  const CE = opt('NFO_60001', 'CE', 2_400_000);
  const PE = opt('NFO_60002', 'PE', 2_400_000);

  it('prices calls and puts off the index: the call rises and the put falls with it', () => {
    const model = new MarketModel(
      [{ instrument: CE, prevClose: 1, underlying: NIFTY.id }, { instrument: PE, prevClose: 1, underlying: NIFTY.id }, { instrument: NIFTY, prevClose: 2_400_000, volatility: 0.4 }],
      // Every instrument on every slot, so the three series line up tick for tick.
      { seed: 12, sessionOpen: OPEN, tickIntervalMs: 250 },
    );
    // At the money, 6.25 days before expiry, 15% IV: about 0.4 x S x sigma x sqrt(T) = 188 rupees.
    const q0 = model.quote(CE.id);
    expect(q0.prevClose).toBeGreaterThan(17_000);
    expect(q0.prevClose).toBeLessThan(21_000);
    const ticks = model.advanceTo(CLOSE);
    const at = (id: string) => ticks.filter((t) => t.instrument === id);
    const idx = at(NIFTY.id);
    const ce = at(CE.id);
    const pe = at(PE.id);
    expect(ce.length).toBe(idx.length);
    // Same slots, underlying first: compare moves tick by tick (theta over 250 ms is far below a tick).
    let agree = 0;
    let against = 0;
    for (let k = 1; k < idx.length; k++) {
      const d = idx[k]!.ltp - idx[k - 1]!.ltp;
      if (d === 0) continue;
      if (Math.sign(ce[k]!.ltp - ce[k - 1]!.ltp) === Math.sign(d) || ce[k]!.ltp === ce[k - 1]!.ltp) agree++;
      else against++;
      if (Math.sign(pe[k]!.ltp - pe[k - 1]!.ltp) === Math.sign(d)) against++;
    }
    expect(against).toBe(0);
    expect(agree).toBeGreaterThan(1000);
    // Put-call parity at r = 0: C - P = S - K, within a tick of rounding each.
    const last = (id: string) => model.lastPrice(id)!;
    expect(Math.abs(last(CE.id) - last(PE.id) - (model.lastPrice(NIFTY.id)! - 2_400_000))).toBeLessThanOrEqual(100);
  });

  it('keeps a price override as an offset from the model value', () => {
    const model = new MarketModel([{ instrument: NIFTY, prevClose: 2_400_000 }, { instrument: CE, prevClose: 1, underlying: NIFTY.id }], { seed: 3, sessionOpen: OPEN });
    model.advanceTo(OPEN + MINUTE_MS);
    const before = model.lastPrice(CE.id)!;
    model.setPrice(CE.id, before + 5_000, OPEN + MINUTE_MS + 1);
    const after = model.advanceTo(OPEN + 2 * MINUTE_MS).filter((t) => t.instrument === CE.id);
    expect(Math.abs(after[after.length - 1]!.ltp - (before + 5_000))).toBeLessThan(3_000);
  });

  it('prices a linked option with its valuer off a silent underlying, keeping the previous close it was given', () => {
    // A valuer with a visible signature: 10% of the index plus one rupee per minute since the open.
    const valuer = (spot: number, ts: number): number => spot * 0.1 + ((ts - OPEN) / MINUTE_MS) * 100;
    const model = new MarketModel(
      [{ instrument: NIFTY, prevClose: 2_400_000, silent: true }, { instrument: CE, prevClose: 250_000, underlying: NIFTY.id, valuer }],
      { seed: 5, sessionOpen: OPEN, tickIntervalMs: 250 },
    );
    expect(model.quote(CE.id).prevClose).toBe(250_000);
    const ticks = model.advanceTo(OPEN + 10 * MINUTE_MS);
    expect(ticks.length).toBeGreaterThan(2000);
    expect(ticks.every((t) => t.instrument === CE.id)).toBe(true);
    const mark = model.linkedMark(CE.id)!;
    expect(mark.ts).toBe(ticks.at(-1)!.ts);
    expect(mark.ltp).toBe(Math.round(valuer(mark.spot, mark.ts) / 5) * 5);
    expect(Math.abs(mark.spot - model.lastPrice(NIFTY.id)!)).toBeLessThanOrEqual(5);
    expect(model.linkedMark(NIFTY.id)).toBeUndefined();
  });

  it('starts a later session where a model that played the days before stood at its open, linked contracts included', () => {
    const valuer = (spot: number, ts: number): number => spot * 0.1 + ((ts - OPEN) / MINUTE_MS) * 10;
    const base: MarketInstrumentSpec[] = [
      syntheticSpec(equity(1), 7),
      { instrument: NIFTY, prevClose: 2_400_000 },
      { instrument: CE, prevClose: 250_000, underlying: NIFTY.id, valuer },
      { ...syntheticSpec(FUT, 7), underlying: NIFTY.id, valuer: (spot) => spot * 1.01 },
    ];
    const nextOpen = istDateTime('2026-11-23', '09:15');
    const thirdOpen = istDateTime('2026-11-24', '09:15');
    // Played from day one: the option forced away from its model value on day one.
    const full = new MarketModel(base, { seed: 3, sessionOpen: OPEN, tickIntervalMs: 5_000 });
    full.advanceTo(OPEN + 60 * MINUTE_MS);
    full.setPrice(CE.id, 400_000, OPEN + 60 * MINUTE_MS);
    full.advanceTo(CLOSE - 1);
    full.startSession(nextOpen);
    // Started at day two from the plain instruments' open state; the contracts open at their settlement off the index.
    const plain = new Set([equity(1).id, NIFTY.id]);
    const resumed = new MarketModel(
      base.map((sp) => (plain.has(sp.instrument.id) ? { ...sp, openState: full.openState(sp.instrument.id) } : sp)),
      { seed: 3, sessionOpen: nextOpen, tickIntervalMs: 5_000, resumeAfter: CLOSE },
    );
    for (const sp of base) expect(resumed.quote(sp.instrument.id), sp.instrument.id).toEqual(full.quote(sp.instrument.id));
    const a = full.advanceTo(nextOpen + 120 * MINUTE_MS);
    const b = resumed.advanceTo(nextOpen + 120 * MINUTE_MS);
    expect(b.length).toBeGreaterThan(1000);
    expect(b).toEqual(a);
    // The option's previous close is its value at the index's close, not its forced price.
    expect(full.quote(CE.id).prevClose).toBe(Math.round(valuer(full.quote(NIFTY.id).prevClose, CLOSE) / CE.tickSize) * CE.tickSize);
    // And on through another roll.
    full.advanceTo(nextOpen + 375 * MINUTE_MS - 1);
    resumed.advanceTo(nextOpen + 375 * MINUTE_MS - 1);
    full.startSession(thirdOpen);
    resumed.startSession(thirdOpen);
    expect(resumed.advanceTo(thirdOpen + 30 * MINUTE_MS)).toEqual(full.advanceTo(thirdOpen + 30 * MINUTE_MS));
    expect(() => new MarketModel(base, { seed: 3, sessionOpen: OPEN, resumeAfter: nextOpen })).toThrow(/resumeAfter/);
  });

  it('refuses a link to a missing underlying or from a non-option', () => {
    expect(() => new MarketModel([{ instrument: CE, prevClose: 1, underlying: 'NIDX_99' }], { seed: 1, sessionOpen: OPEN })).toThrow(/NIDX_99 is not in the model/);
    expect(() => new MarketModel([{ instrument: NIFTY, prevClose: 100, underlying: CE.id }, { instrument: CE, prevClose: 1 }], { seed: 1, sessionOpen: OPEN })).toThrow(
      /only an option/,
    );
  });
});
