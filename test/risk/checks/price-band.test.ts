import { describe, expect, it } from 'vitest';
import { istDate } from '../../../src/core/time.js';
import { priceBandRefusal } from '../../../src/risk/rules/price-bands.js';
import { NIFTY_FUT, riskFixture } from '../fixture.js';

// The fixture's NIFTY future last traded at Rs 23,500: its execution range is 5% either side.
const limit = (price: number) => ({ kind: 'place', id: `l${price}`, strategyId: 's', instrument: NIFTY_FUT.id, side: 'BUY', qty: 75, orderType: 'LIMIT', limitPrice: price, validity: 'DAY', product: 'MARGIN' }) as const;

describe('risk: F&O execution range', () => {
  it('denies a LIMIT price outside the range around the last price, in the simulator\'s words (PRICE_BAND)', () => {
    const { risk, clock } = riskFixture();
    expect(risk.evaluate(limit(2_460_000))).toBeNull();
    expect(risk.evaluate(limit(2_480_000))).toEqual({ code: 'PRICE_BAND', reason: priceBandRefusal(NIFTY_FUT, 2_480_000, 2_350_000, istDate(clock.now())) });
    expect(risk.evaluate(limit(2_220_000))?.code).toBe('PRICE_BAND');
  });

  it('leaves stop orders alone (they trade later, against a later reference) and checks price modifications', () => {
    const { risk, world } = riskFixture();
    expect(risk.evaluate({ ...limit(2_480_000), orderType: 'STOP_LOSS', triggerPrice: 2_470_000 })).toBeNull();
    world.orders.set('t1', { tag: 't1', strategyId: 's', orderId: '1', instrument: NIFTY_FUT.id, side: 'BUY', qty: 75, orderType: 'LIMIT', product: 'MARGIN', validity: 'DAY', limitPrice: 2_350_000, status: 'OPEN', filledQty: 0, filledValue: 0, modifications: 0 });
    expect(risk.evaluate({ kind: 'modify', id: 'm1', strategyId: 's', target: 't1', limitPrice: 2_480_000 })?.code).toBe('PRICE_BAND');
    expect(risk.evaluate({ kind: 'modify', id: 'm2', strategyId: 's', target: 't1', limitPrice: 2_400_000 })).toBeNull();
  });
});
