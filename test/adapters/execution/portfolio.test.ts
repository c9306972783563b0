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
});
