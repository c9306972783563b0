import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/core/bus/event-bus.js';
import { VirtualClock } from '../../../src/core/clock.js';
import type { FillEvent, PositionEvent } from '../../../src/core/events.js';
import { Portfolio } from '../../../src/adapters/execution/portfolio.js';
import { istDateTime } from '../../../src/core/time.js';

let n = 0;
const fill = (side: 'BUY' | 'SELL', qty: number, price: number, over: Partial<FillEvent> = {}): FillEvent => ({
  type: 'fill', ts: istDateTime('2025-01-06', '10:00'), fillId: `f${++n}`, tag: 't', strategyId: 's1', instrument: 'NSE_2885', side, qty, price, product: 'INTRADAY', ...over,
});

describe('portfolio', () => {
  it("lists a strategy's open books of one instrument first traded first, as positions(strategyId) does, for an exit", () => {
    const p = new Portfolio(new VirtualClock(istDateTime('2025-01-06', '10:00')), new EventBus());
    p.applyFill(fill('BUY', 10, 100_00, { instrument: 'NSE_1', product: 'CNC' }));
    p.applyFill(fill('BUY', 4, 200_00, { instrument: 'NSE_2' }));
    p.applyFill(fill('SELL', 3, 101_00, { instrument: 'NSE_1', product: 'INTRADAY' }));
    p.applyFill(fill('BUY', 7, 102_00, { instrument: 'NSE_1', product: 'MARGIN', strategyId: 's2' }));
    p.applyFill(fill('BUY', 2, 300_00, { instrument: 'NSE_3', product: 'INTRADAY' }));
    p.applyFill(fill('SELL', 2, 301_00, { instrument: 'NSE_3', product: 'INTRADAY' }));
    const fromAll = p.positions('s1').filter((b) => b.instrument === 'NSE_1');
    expect(p.openBooksOf('s1', 'NSE_1')).toEqual(fromAll);
    expect(p.openBooksOf('s1', 'NSE_1').map((b) => [b.product, b.netQty])).toEqual([['CNC', 10], ['INTRADAY', -3]]);
    expect(p.openBooksOf('s1', 'NSE_1', 'INTRADAY').map((b) => b.netQty)).toEqual([-3]);
    expect(p.openBooksOf('s1', 'NSE_3')).toEqual([]);
    expect(p.openBooksOf('s2', 'NSE_2')).toEqual([]);
    expect(p.openBooksOf('nobody', 'NSE_1')).toEqual([]);
  });

  it('books realized P&L exactly through adds, partial closes and a flip to short', () => {
    const clock = new VirtualClock(istDateTime('2025-01-06', '10:00'));
    const bus = new EventBus();
    const p = new Portfolio(clock, bus);
    const positions: PositionEvent[] = [];
    bus.on('position', (e) => positions.push(e));
    p.applyFill(fill('BUY', 10, 100_00));
    p.applyFill(fill('BUY', 5, 103_00)); // 15 @ cost 1515.00
    expect(p.netQty('NSE_2885')).toBe(15);
    p.applyFill(fill('SELL', 6, 110_00)); // closes 6 of 15: cost 606.00, proceeds 660.00
    expect(p.realizedPnl()).toBe(54_00);
    p.applyFill(fill('SELL', 14, 90_00)); // closes 9 (cost 909.00, proceeds 810.00), opens 5 short @ 90
    expect(p.realizedPnl()).toBe(54_00 - 99_00);
    expect(p.netQty('NSE_2885')).toBe(-5);
    const view = p.viewFor('s1').position('NSE_2885')!;
    expect(view).toMatchObject({ netQty: -5, openValue: -450_00 });
    p.mark('NSE_2885', 88_00, clock.now());
    expect(p.unrealizedPnl()).toBe(10_00); // short 5 from 90 to 88
    p.applyFill(fill('BUY', 5, 88_00, { charges: 1_50 }));
    expect(p.netQty('NSE_2885')).toBe(0);
    expect(p.realizedPnl()).toBe(54_00 - 99_00 + 10_00 - 1_50);
    expect(p.unrealizedPnl()).toBe(0);
    expect(p.positions()).toEqual([]);
    // One strategy event and one account event per fill.
    expect(positions).toHaveLength(10);
    expect(positions.filter((e) => e.strategyId === 's1')).toHaveLength(5);
  });

  it('keeps books per strategy and sums them for the account; daily P&L restarts each IST day', () => {
    const clock = new VirtualClock(istDateTime('2025-01-06', '10:00'));
    const p = new Portfolio(clock, new EventBus());
    p.applyFill(fill('BUY', 10, 100_00, { strategyId: 'a' }));
    p.applyFill(fill('SELL', 4, 100_00, { strategyId: 'b' }));
    expect(p.netQty('NSE_2885')).toBe(6);
    expect(p.netQty('NSE_2885', 'a')).toBe(10);
    expect(p.netQty('NSE_2885', 'b')).toBe(-4);
    p.mark('NSE_2885', 95_00, clock.now());
    expect(p.dailyPnl()).toBe(-30_00);
    clock.advanceTo(istDateTime('2025-01-07', '09:15'));
    expect(p.dailyPnl()).toBe(0);
    p.mark('NSE_2885', 96_00, clock.now());
    expect(p.dailyPnl()).toBe(6_00);
    expect(p.totalPnl()).toBe(-24_00);
  });

  it('makes the fills that settle a contract held through expiry in every book: booked, strategies and account are flat at the settlement price', () => {
    const clock = new VirtualClock(istDateTime('2026-11-20', '10:00'));
    const bus = new EventBus();
    const p = new Portfolio(clock, bus);
    const positions: PositionEvent[] = [];
    bus.on('position', (e) => positions.push(e));
    const FUT = 'NFO_51718173';
    const at = istDateTime('2026-11-20', '10:00');
    p.applyFill(fill('BUY', 65, 2_420_000, { instrument: FUT, product: 'MARGIN', strategyId: 'a', ts: at }));
    p.applyFill(fill('BUY', 130, 2_425_000, { instrument: FUT, product: 'MARGIN', strategyId: 'b', ts: at }));
    p.applyFill(fill('SELL', 65, 4_000, { instrument: 'NFO_1', product: 'MARGIN', strategyId: 'a', ts: at }));
    p.mark(FUT, 2_430_000, at);
    // The venue settled the future at 24,312.35 and reports the position's realised P&L.
    const venueRealized = 65 * (2_431_235 - 2_420_000) + 130 * (2_431_235 - 2_425_000);
    const price = p.impliedClosePrice(FUT, 'MARGIN', venueRealized);
    expect(price).toBe(2_431_235);
    clock.advanceTo(istDateTime('2026-11-24', '09:15'));
    positions.length = 0;
    const r = p.settlementFills(FUT, 'MARGIN', price!, clock.now(), `${FUT}:MARGIN:2026-11-23`)!;
    expect(r.qty).toBe(195);
    expect(r.realizedPnl).toBe(venueRealized);
    const ref = `${FUT}:MARGIN:2026-11-23`;
    expect(r.fills).toEqual([
      { type: 'fill', ts: clock.now(), fillId: `settlement:${ref}:a`, tag: `settlement:${ref}`, strategyId: 'a', instrument: FUT, side: 'SELL', qty: 65, price: 2_431_235, product: 'MARGIN', charges: 0 },
      { type: 'fill', ts: clock.now(), fillId: `settlement:${ref}:b`, tag: `settlement:${ref}`, strategyId: 'b', instrument: FUT, side: 'SELL', qty: 130, price: 2_431_235, product: 'MARGIN', charges: 0 },
    ]);
    for (const f of r.fills) p.applyFill(f);
    expect(p.netQty(FUT)).toBe(0);
    expect(p.netQty(FUT, 'a')).toBe(0);
    expect(p.netQty(FUT, 'b')).toBe(0);
    expect(p.viewFor('a').position(FUT, 'MARGIN')).toMatchObject({ netQty: 0, openValue: 0, realizedPnl: 65 * 11_235, unrealizedPnl: 0 });
    expect(p.viewFor('b').position(FUT, 'MARGIN')).toMatchObject({ netQty: 0, realizedPnl: 130 * 6_235 });
    expect(p.realizedPnl()).toBe(venueRealized);
    // Only the put is still open (unrealised at its fill price).
    expect(p.positions().map((x) => x.instrument)).toEqual(['NFO_1']);
    expect(p.unrealizedPnl()).toBe(0);
    // The day's P&L is the move from the last mark to the settlement: 195 x 12.35.
    expect(p.dailyPnl()).toBe(195 * 1_235);
    expect(positions.map((e) => [e.strategyId, e.netQty])).toEqual([
      ['a', 0],
      [undefined, 130],
      ['b', 0],
      [undefined, 0],
    ]);
    // Nothing open: nothing to settle, no price to infer.
    expect(p.settlementFills(FUT, 'MARGIN', price!, clock.now(), ref)).toBeUndefined();
    expect(p.impliedClosePrice(FUT, 'MARGIN', 0)).toBeUndefined();
  });

  it('infers the settlement price of a short from the P&L the venue reports', () => {
    const p = new Portfolio(new VirtualClock(istDateTime('2026-11-20', '10:00')), new EventBus());
    p.applyFill(fill('SELL', 65, 4_000, { instrument: 'NFO_1', product: 'MARGIN' }));
    // Expired worthless: the whole premium is kept.
    expect(p.impliedClosePrice('NFO_1', 'MARGIN', 65 * 4_000)).toBe(0);
    // Assigned at 12.50 a unit.
    expect(p.impliedClosePrice('NFO_1', 'MARGIN', 65 * (4_000 - 1_250))).toBe(1_250);
  });
});
