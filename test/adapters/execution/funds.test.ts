/**
 * Issue 13 (3): the funds reservation follows each order's life. Orders placed and cancelled
 * without a fill give back what they reserved; a fill turns its share into the fill's own margin;
 * funds are re-read after final states as well as after fills.
 */
import { describe, expect, it } from 'vitest';
import type { StrategyContext } from '../../../src/strategies/strategy.js';
import { bare, harness } from './harness.js';

function handle() {
  const h: { ctx?: StrategyContext } = {};
  return { h, strategy: bare({ onStart: (ctx) => void (h.ctx = ctx) }) };
}

/** 50,000 rupees: one intraday order of 200 x 1,000.00 (margin 40,000) fits, two at once do not. */
const FUNDS = 5_000_000;

describe('funds reservation', () => {
  it('1,000 place/cancel cycles without a fill end with the starting funds available', async () => {
    // A network venue whose funds are not re-read meanwhile (the refresh interval never passes on
    // this clock): what is available is the reservation arithmetic alone.
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { funds: FUNDS, async: true }, execution: { fundsRefreshMs: 3_600_000 } });
    await h.engine.execution.idle();
    const ctx = a.h.ctx!;
    expect(h.engine.execution.availableFunds()).toBe(FUNDS);
    for (let n = 0; n < 1000; n++) {
      h.clock.advanceBy(1000); // within the retail-algo order rate
      const tag = ctx.buy('NSE_2885', 200, { limitPrice: 1_000_00 });
      await h.engine.execution.idle();
      expect(h.engine.execution.availableFunds(), `cycle ${n}`).toBeLessThan(FUNDS / 2);
      ctx.cancel(tag);
      await h.engine.execution.idle();
      await new Promise((r) => setImmediate(r));
    }
    expect(h.of('denied')).toEqual([]);
    expect(h.venue.writesOf('place')).toHaveLength(1000);
    expect(h.venue.writesOf('cancel')).toHaveLength(1000);
    expect(h.engine.execution.availableFunds()).toBe(FUNDS);
  });

  it('a rejected order gives its reservation back', async () => {
    const a = handle();
    let n = 0;
    const h = await harness({
      strategies: [{ id: 's1', strategy: a.strategy }],
      venue: { funds: FUNDS, answer: () => (n++ === 0 ? { status: 'rejected', reason: 'Insufficient funds', errorCode: 'OrderException' } : undefined) },
    });
    a.h.ctx!.buy('NSE_2885', 200, { limitPrice: 1_000_00 });
    expect(h.of('denied').map((d) => d.code)).toEqual(['VENUE_REJECTED']);
    expect(h.engine.execution.availableFunds()).toBe(FUNDS);
    a.h.ctx!.buy('NSE_2885', 200, { limitPrice: 1_000_00 });
    expect(h.of('denied')).toHaveLength(1);
    expect(h.venue.writesOf('place')).toHaveLength(2);
  });

  it('re-reads the venue after an order ends, not only after fills', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { funds: FUNDS } });
    const tag = a.h.ctx!.buy('NSE_2885', 10, { limitPrice: 1_000_00 });
    const reserved = FUNDS - h.engine.execution.availableFunds()!;
    expect(reserved).toBeGreaterThan(0);
    // The venue's figure moves (e.g. a manual order elsewhere); it is read once our order is final.
    h.venue.availableFunds = FUNDS - 123_45;
    expect(h.engine.execution.availableFunds()).toBe(FUNDS - reserved);
    a.h.ctx!.cancel(tag);
    expect(h.engine.execution.availableFunds()).toBe(FUNDS - 123_45);
  });

  it('on a fill, the filled share is held at the fill price and the rest at the order price until the next read', async () => {
    const a = handle();
    const h = await harness({ strategies: [{ id: 's1', strategy: a.strategy }], venue: { funds: FUNDS, async: true }, execution: { fundsRefreshMs: 60_000 } });
    await h.engine.execution.idle();
    const tag = a.h.ctx!.buy('NSE_2885', 10, { limitPrice: 1_000_00 });
    await h.engine.execution.idle();
    const whole = FUNDS - h.engine.execution.availableFunds()!;
    const perShareAtLimit = whole / 10;
    const orderId = h.engine.orders.get(tag)!.orderId!;
    h.venue.fill(orderId, 4, 900_00);
    await h.engine.execution.idle();
    // 6 still reserved at 1,000.00 and 4 at the fill's 900.00 (margin is proportional to value here).
    expect(FUNDS - h.engine.execution.availableFunds()!).toBe(6 * perShareAtLimit + 4 * perShareAtLimit * 0.9);
    h.venue.availableFunds = FUNDS - 4 * perShareAtLimit * 0.9 - 6 * perShareAtLimit;
    h.clock.advanceBy(60_000);
    await h.engine.execution.idle();
    await new Promise((r) => setImmediate(r));
    expect(h.engine.execution.availableFunds()).toBe(h.venue.availableFunds);
  });
});
